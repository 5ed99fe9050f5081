// The updates list: what to upgrade where, most urgent first. Tiles filter by
// urgency; lines can be put off (acknowledgements) and copied as a checklist.
import Link from "next/link";
import { AppShell } from "@/components/app-shell";
import { REASON_LABEL, REASON_TONE, UpdateGroupRow, UpdateRow } from "@/components/insights/update-row";
import { WaitingReleases } from "@/components/insights/waiting-releases";
import { FlashMessage, readFlash } from "@/components/settings/flash";
import { CopyButton } from "@/components/ui/copy-button";
import { FilterForm } from "@/components/ui/filter-form";
import { Pager } from "@/components/ui/pager";
import { NothingReported } from "@/components/ui/nothing-reported";
import { QuietBanner } from "@/components/ui/quiet-banner";
import { RegistryBanner } from "@/components/ui/registry-banner";
import { quietNotesByCell } from "@/components/matrix/cell-text";
import { countUpdatesByReason, groupedUpdatesChecklist, groupUpdateLines, UPDATE_REASONS, updatesChecklist, type UpdateReason } from "@/lib/domain/insights";
import { requirePageSession } from "@/lib/http/context";
import { hasRole } from "@/lib/services/context";
import { listDrifts } from "@/lib/services/drift/list-drifts";
import { listEnvironments } from "@/lib/services/environments/list";
import { listUpdates } from "@/lib/services/insights/updates";
import { listWaitingReleasesOf } from "@/lib/services/insights/waiting-releases";
import { getMatrix } from "@/lib/services/matrix/get";
import { listTeams } from "@/lib/services/matrix/list-teams";
import { hasAnyService } from "@/lib/services/services/has-any";
import { DRIFT_KIND_NAME } from "@/lib/domain/words";
import { listQuietTargets } from "@/lib/services/targets/list-quiet";
import { listFailingRegistries } from "@/lib/services/upstream/failing-registries";
import { putOffAction, undoPutOffAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Updates" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : "");
const PAGE = 100;
const CHECKLIST_MAX = 1000;

export default async function UpdatesPage({ searchParams }: { searchParams: SearchParams }) {
  const { ctx, workspaceName } = await requirePageSession();
  const sp = await searchParams;
  const flash = await readFlash(searchParams);
  const team = one(sp.team).slice(0, 100);
  const env = one(sp.env).slice(0, 100);
  const reason = (UPDATE_REASONS as readonly string[]).includes(one(sp.reason)) ? (one(sp.reason) as UpdateReason) : null;
  const grouped = one(sp.group) === "service";
  const [updates, teams, envs, failing, waiting, gitDifferences, anyService, quiet, matrix] = await Promise.all([
    listUpdates({ ctx, input: { ...(team ? { team } : {}), ...(env ? { environment: env } : {}) } }),
    listTeams({ ctx }),
    listEnvironments({ ctx }),
    listFailingRegistries({ ctx }),
    listWaitingReleasesOf({ ctx, input: team ? { team } : {} }),
    listDrifts({ ctx, input: { kind: "declared", ...(env ? { environment: env } : {}) } }),
    hasAnyService({ ctx }),
    listQuietTargets({ ctx }),
    getMatrix({ ctx, input: {} }),
  ]);
  if (!anyService) {
    return (
      <AppShell current="updates" workspace={workspaceName} email={ctx.actor.email}>
        <div className="page-head"><div><h1>Updates</h1></div></div>
        <NothingReported what="Updates lists what to upgrade where once Driftwatch knows what runs." workspace={workspaceName} baseUrl={ctx.config.baseUrl} />
      </AppShell>
    );
  }
  // A line whose versions come from quiet targets says so: they may no longer run.
  const quietNotes = quiet.targets.length ? quietNotesByCell(matrix.services, ctx.now) : new Map<string, string>();
  const quietOf = (l: { service: string; environment: string }) => quietNotes.get(`${l.service}\0${l.environment}`) ?? null;
  const asLines = (ls: typeof updates.items) => ls.map((l) => ({ ...l, open_since: new Date(l.open_since), ack: null, waiting: l.waiting.map((w) => ({ ...w, until: new Date(w.until) })) }));
  const counts = countUpdatesByReason(updates.items);
  // A tile counts every line that has its reason, so its filter shows those same lines.
  const shown = reason ? updates.items.filter((l) => l.reasons.includes(reason)) : updates.items;
  const listed = shown.slice(0, CHECKLIST_MAX);
  const groups = grouped ? groupUpdateLines(asLines(shown), envs.items.map((e) => e.name)) : [];
  const checklist =
    (grouped ? groupedUpdatesChecklist(groups.slice(0, CHECKLIST_MAX)) : updatesChecklist(asLines(listed))) +
    (shown.length > CHECKLIST_MAX ? `\n\n… and ${shown.length - CHECKLIST_MAX} more in Driftwatch.` : "");
  const canAct = hasRole(ctx.actor, "member");
  const now = ctx.now;
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  const page = Math.min(Math.max(1, Number.parseInt(one(sp.page), 10) || 1), pages);
  const pageLines = shown.slice((page - 1) * PAGE, page * PAGE);
  const href = (change: { reason?: UpdateReason | null; page?: number; group?: boolean }) => {
    const q = new URLSearchParams();
    if (team) q.set("team", team);
    if (env) q.set("env", env);
    if (change.group ?? grouped) q.set("group", "service");
    const r = change.reason === undefined ? reason : change.reason;
    if (r) q.set("reason", r);
    const p = change.page ?? (change.reason === undefined ? page : 1);
    if (p > 1) q.set("page", String(p));
    const s = q.toString();
    return `/updates${s ? `?${s}` : ""}`;
  };
  const here = href({});

  return (
    <AppShell current="updates" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Updates</h1>
          <p className="muted">Every service and environment to upgrade: an end of life, a newer release upstream, or a version behind the previous environment; what runs, what to move to, and why. Most urgent first; production first within each.</p>
          <p className="muted" data-testid="updates-scope">
            {gitDifferences.items.length > 0 ? (
              <>Not listed here: <Link href={`/?kind=declared${env ? `&env=${encodeURIComponent(env)}` : ""}`}>{gitDifferences.items.length} {gitDifferences.items.length === 1 ? "place where" : "places where"} what runs differs from Git</Link> ({DRIFT_KIND_NAME.declared.toLowerCase()}: fix the Compose file or the deployment, not the version), and targets of one environment that differ (the matrix shows both).</>
            ) : (
              <>Not listed here: differences from Git and targets of one environment that differ; the matrix shows both.</>
            )}
          </p>
        </div>
        <div className="head-actions">
          <CopyButton text={checklist || "Nothing to update."} label="Copy as checklist" copiedLabel="Checklist copied" className="" />
        </div>
      </div>
      <FlashMessage flash={flash} />
      <RegistryBanner registries={failing} />
      <QuietBanner targets={quiet.targets} quietAfterMs={quiet.quietAfterMs} now={now} />
      <nav className="tiles" aria-label="Filter by urgency">
        <Link href={href({ reason: null })} className="tile" aria-current={reason === null ? "true" : undefined}>
          <span className="tile-n">{updates.items.length}</span>
          <span className="tile-l">All updates</span>
        </Link>
        {UPDATE_REASONS.map((r) => (
          <Link key={r} href={href({ reason: r })} className={`tile tone-${REASON_TONE[r]}`} aria-current={reason === r ? "true" : undefined}>
            <span className="tile-n">{counts[r]}</span>
            <span className="tile-l">{REASON_LABEL[r]}</span>
          </Link>
        ))}
      </nav>
      <FilterForm action="/updates" label="Filter updates">
        <div className="filter">
          <label htmlFor="up-team">Team</label>
          <select id="up-team" name="team" defaultValue={team}>
            <option value="">All teams</option>
            {teams.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </div>
        <div className="filter">
          <label htmlFor="up-env">Environment</label>
          <select id="up-env" name="env" defaultValue={env}>
            <option value="">All environments</option>
            {envs.items.map((e) => <option key={e.name} value={e.name}>{e.name}</option>)}
          </select>
        </div>
        {reason ? <input type="hidden" name="reason" value={reason} /> : null}
        {grouped ? <input type="hidden" name="group" value="service" /> : null}
      </FilterForm>
      <p className="view-switch">
        {grouped ? <Link href={href({ group: false, page: 1 })}>One line per environment</Link> : <Link href={href({ group: true, page: 1 })}>Group by service and release</Link>}
      </p>

      <section aria-labelledby="todo-h">
        <h2 id="todo-h" className="sr">To update</h2>
        {shown.length === 0 ? (
          <div className="card empty"><p>{updates.items.length === 0 ? (failing.length > 0 ? "Nothing to update that Driftwatch knows of: some registries cannot be reached." : "Nothing to update: everything runs what the policies ask for.") : "Nothing with this urgency."}</p></div>
        ) : grouped ? (
          <div className="table-scroll">
            <table className="data updates grouped" data-testid="grouped-updates">
              <caption className="sr">Updates by service and release{reason ? `: ${REASON_LABEL[reason]}` : ""}</caption>
              <thead><tr><th scope="col">Service</th><th scope="col">Environments</th><th scope="col">Move</th><th scope="col">Why</th></tr></thead>
              <tbody>{groups.map((g) => <UpdateGroupRow key={`${g.service}/${g.target_version ?? ""}`} group={g} />)}</tbody>
            </table>
          </div>
        ) : (
          <form action={putOffAction} className="table-scroll">
            <input type="hidden" name="back" value={here} />
            <table className="data updates">
              <caption className="sr">Updates{reason ? `: ${REASON_LABEL[reason]}` : ""}, most urgent first</caption>
              <thead><tr><th scope="col">Service</th><th scope="col">Environment</th><th scope="col">Move</th><th scope="col">Why</th><th scope="col">Open for</th>{canAct ? <th scope="col">Put off</th> : null}</tr></thead>
              <tbody>{pageLines.map((l) => <UpdateRow key={`${l.service}/${l.environment}`} line={l} now={now} canAct={canAct} quiet={quietOf(l)} />)}</tbody>
            </table>
          </form>
        )}
        <Pager page={page} pages={pages} total={shown.length} href={(p) => href({ page: p })} />
      </section>
      <WaitingReleases items={waiting.filter((w) => !env || w.environment === env)} />

      <section aria-labelledby="acked-h">
        <h2 id="acked-h">Acknowledged <span className="count">{updates.acknowledged.length}</span></h2>
        {updates.acknowledged.length === 0 ? (
          <p className="muted">Nothing is put off.</p>
        ) : (
          <form action={undoPutOffAction} className="table-scroll">
            <input type="hidden" name="back" value={here} />
            <table className="data updates acked" data-testid="acknowledged">
              <caption className="sr">Put off</caption>
              <thead><tr><th scope="col">Service</th><th scope="col">Environment</th><th scope="col">Move</th><th scope="col">Why</th><th scope="col">Put off</th>{canAct ? <th scope="col"><span className="sr">Undo</span></th> : null}</tr></thead>
              <tbody>{updates.acknowledged.slice(0, PAGE).map((l) => <UpdateRow key={`${l.service}/${l.environment}`} line={l} now={now} canAct={canAct} acknowledged quiet={quietOf(l)} />)}</tbody>
            </table>
          </form>
        )}
        {updates.acknowledged.length > PAGE ? <p className="muted">And {updates.acknowledged.length - PAGE} more put off.</p> : null}
      </section>
    </AppShell>
  );
}
