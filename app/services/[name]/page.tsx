// One service: what runs where, how far behind upstream, the releases in
// between, thirty days of history, drift, acknowledgements, the policy and
// its badges.
import Link from "next/link";
import { notFound } from "next/navigation";
import { AppShell } from "@/components/app-shell";
import { BadgesCard, BadgeStatePill } from "@/components/service/badges-card";
import { AckList, DriftList } from "@/components/service/drift-list";
import { PolicyForm, type PolicyView } from "@/components/service/policy-form";
import { ReleasesList } from "@/components/service/releases-list";
import { GateLines } from "@/components/service/gate-line";
import { RunsTable } from "@/components/service/runs-table";
import { QuietBanner } from "@/components/ui/quiet-banner";
import { VersionTimeline } from "@/components/service/timeline";
import { UpstreamCard } from "@/components/service/upstream-card";
import { WaitingReleases } from "@/components/insights/waiting-releases";
import { listWaitingReleasesOf } from "@/lib/services/insights/waiting-releases";
import { upstreamNote } from "@/components/matrix/cell-text";
import { NAME_RE } from "@/lib/api/schemas/common";
import { AppError } from "@/lib/domain/errors";
import type { DriftKind } from "@/lib/domain/policy";
import { requirePageSession } from "@/lib/http/context";
import { listBadgeAddresses } from "@/lib/services/badges/list-addresses";
import { hasRole } from "@/lib/services/context";
import { previewGate } from "@/lib/services/gate/preview";
import { getServiceDetail, HISTORY_DAYS } from "@/lib/services/services/get-detail";
import { getSourceLabelStatus } from "@/lib/services/upstream/source-label-status";
import { getQuotaWait } from "@/lib/services/upstream/quota-wait";

export const dynamic = "force-dynamic";

type Params = Promise<{ name: string }>;

export async function generateMetadata({ params }: { params: Params }) {
  return { title: decodeURIComponent((await params).name) };
}

function policyView(policy: Record<string, unknown>): PolicyView {
  const str = (k: string) => (typeof policy[k] === "string" ? (policy[k] as string) : null);
  return {
    track: str("track") ?? "patch",
    pin_major: typeof policy.pin_major === "number" ? policy.pin_major : null,
    tag_filter: str("tag_filter"),
    prerelease: policy.prerelease === true,
    drift_alert_after: (policy.drift_alert_after ?? {}) as Partial<Record<DriftKind, string>>,
    github: str("github"),
    gitlab: str("gitlab"),
    release_tag_prefix: str("release_tag_prefix"),
    changelog: str("changelog"),
    eol: str("eol"),
    min_release_age: str("min_release_age"),
  };
}

const SOURCE_TEXT = { service: "own policy", catalog: "from catalog", default: "default policy" } as const;

export default async function ServicePage({ params, searchParams }: { params: Params; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const name = decodeURIComponent((await params).name);
  if (!NAME_RE.test(name)) notFound();
  const detail = await getServiceDetail({ ctx, input: { name } }).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found") notFound();
    throw err;
  });
  const now = ctx.now;
  const isMember = hasRole(ctx.actor, "member");
  const addresses = isMember ? await listBadgeAddresses({ ctx, input: { name, environments: (detail.row?.cells ?? []).map((c) => c.environment) } }) : null;
  const { service } = detail;
  // Opened from a matrix cell: that environment's row is marked and its badge heads the page.
  const rawEnv = (await searchParams).env;
  const focus = typeof rawEnv === "string" && detail.environments.some((e) => e.name === rawEnv) ? rawEnv : null;
  const overall = (focus ? detail.badges.find((b) => b.environment === focus) : undefined) ?? detail.badges[0];
  const upstreamHeader = service.repository ? upstreamNote(service.upstream, now) : null;
  const labelStatus = service.repository ? await getSourceLabelStatus({ ctx, repository: service.repository }) : null;
  const quotaWait = service.repository ? await getQuotaWait({ ctx, repository: service.repository }) : null;
  const waiting = await listWaitingReleasesOf({ ctx, input: { service: service.name } });
  const gate = await previewGate({ ctx, input: { service: service.name } });
  const quietHere = [...new Map((detail.row?.cells ?? []).flatMap((c) => c.targets
    .filter((t) => t.state === "quiet" && !t.declared)
    .map((t) => [t.name, { name: t.name, environment: c.environment, last_seen_at: t.last_seen_at }] as const))).values()];

  return (
    <AppShell current="matrix" workspace={workspaceName} email={ctx.actor.email}>
      <nav aria-label="Breadcrumb" className="crumbs"><Link href="/">Matrix</Link> <span aria-hidden="true">/</span> <span aria-current="page">{service.name}</span></nav>
      <div className="page-head">
        <div>
          <h1>{service.name}</h1>
          <p className="muted meta-line">
            {service.team ? <span>Team <strong>{service.team}</strong></span> : <span>No team</span>}
            {service.application ? <span>Application <strong>{service.application}</strong></span> : null}
            {service.repository ? <span className="mono">{service.repository}</span> : null}
          </p>
          {upstreamHeader ? <p className={`upstream-state tone-${upstreamHeader.tone} ${upstreamHeader.tone === "bad" ? "alert compact" : "muted"}`} data-testid="upstream-state" data-state={service.upstream.state}>Upstream {upstreamHeader.text}</p> : null}
        </div>
        {overall ? (
          <div className="head-state">
            {focus ? <span className="muted">{focus}</span> : null}
            <BadgeStatePill state={overall.state} />
            {overall.version ? <span className="v">{overall.version}</span> : null}
          </div>
        ) : null}
      </div>

      <QuietBanner targets={quietHere} quietAfterMs={ctx.config.quietAfterMs} now={now} />
      <div className="svc-grid">
        <section className="card span-2" aria-labelledby="runs-h">
          <h2 id="runs-h">Where it runs</h2>
          {focus ? <p className="hint" data-testid="env-focus">At <a href={`#env-${focus}`}>{focus}</a>. <Link href={`/services/${encodeURIComponent(service.name)}`}>All environments</Link></p> : null}
          <RunsTable detail={detail} now={now} focus={focus} />
          <GateLines previews={gate} />
        </section>
        <UpstreamCard detail={detail} now={now} canCheck={isMember} labelStatus={labelStatus} quotaWait={quotaWait} />
        <WaitingReleases items={waiting} showService={false} />

        <section className="card span-3" aria-labelledby="timeline-h">
          <h2 id="timeline-h">Versions over the last {HISTORY_DAYS} days</h2>
          <p className="hint">One lane per environment, or per target where an environment has several. Hover a bar for its dates.</p>
          <VersionTimeline detail={detail} now={now} />
        </section>

        <section className="card span-2" aria-labelledby="drift-h">
          <h2 id="drift-h">Open drift</h2>
          <DriftList detail={detail} now={now} />
          <h3>Acknowledgements</h3>
          <AckList detail={detail} now={now} />
        </section>
        <section className="card" aria-labelledby="releases-h">
          <h2 id="releases-h">Releases since what runs</h2>
          <ReleasesList detail={detail} />
        </section>

        <section className="card span-3" aria-labelledby="policy-h">
          <div className="section-head">
            <h2 id="policy-h">Policy</h2>
            <span className={service.policy_source === "service" ? "pill info" : "pill neutral"}>{SOURCE_TEXT[service.policy_source]}</span>
          </div>
          {service.policy_source === "catalog" ? <p className="hint">This service has no policy of its own: the built-in catalog&apos;s policy for {service.repository} applies.</p> : null}
          {isMember ? (
            <PolicyForm service={service.name} team={service.team} policy={policyView(service.policy)} source={service.policy_source} />
          ) : (
            <>
              <pre className="code" tabIndex={0}>{JSON.stringify(service.policy, null, 2)}</pre>
              <p className="hint">Members and higher can change the policy.</p>
            </>
          )}
        </section>

        <div className="span-3">
          <BadgesCard views={detail.badges} addresses={addresses} workspace={workspaceName} />
        </div>
      </div>
    </AppShell>
  );
}
