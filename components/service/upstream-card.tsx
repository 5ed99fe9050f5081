// Upstream: the newest release with its notes, where release notes come
// from, who checks the repository, and the last check with its error.
import { Address } from "@/components/ui/address";
import { formatClock, formatWhen, When } from "@/components/ui/format";
import type { ServiceDetail } from "@/lib/services/services/get-detail";
import type { QuotaWaitOut } from "@/lib/services/upstream/quota-wait";
import type { SourceLabelStatus } from "@/lib/services/upstream/source-label-status";
import { CheckNow } from "./check-now";

const FROM: Record<string, string> = { policy: "set in the policy", catalog: "from the built-in catalog", image_label: "from the image's source label" };

/** Where the image's source-label read stands, when the label is (or may become) the source. */
function labelLine(status: SourceLabelStatus | null, now: Date): string | null {
  if (!status) return null;
  const next = status.next_read_at ? ` (next read about ${formatClock(status.next_read_at, now)})` : "";
  switch (status.state) {
    case "waiting_quota": return `source label: waiting for ${status.host_name ?? "the registry's"} quota${next}`;
    case "retrying": return `source label: the last read failed${status.error ? ` (${status.error})` : ""}${next.replace("next read", "next try")}`;
    case "pending": return "source label: not read yet";
    default: return null;
  }
}

/** Moving tags whose exact version waits for the registry's pull quota, and when it is read. */
function quotaLine(wait: QuotaWaitOut, now: Date): string {
  const when = new Date(wait.until).getTime() > now.getTime() ? `about ${formatClock(wait.until, now)}` : "at the next check";
  return `Which exact version the moving tag runs waits for ${wait.registry}'s pull quota: read ${when}, by itself.`;
}

export function UpstreamCard({ detail, now, canCheck, labelStatus = null, quotaWait = null }: { detail: ServiceDetail; now: Date; canCheck: boolean; labelStatus?: SourceLabelStatus | null; quotaWait?: QuotaWaitOut | null }) {
  const label = labelLine(labelStatus, now);
  const { service, upstream } = detail;
  const source = service.release_source;
  const forgeUrl = source.kind === "github" ? `https://github.com/${source.repository}` : source.kind === "gitlab" ? `https://${source.repository}` : null;
  const behind = upstream.newest && detail.oldest_running && upstream.newest !== detail.oldest_running;
  const isKnown = detail.row?.upstream.state === "ok";
  return (
    <section className="card" aria-labelledby="upstream-h">
      <h2 id="upstream-h">Upstream</h2>
      <dl className="facts">
        <dt>Repository</dt>
        <dd className="mono">{service.repository ? <Address text={service.repository} /> : "none yet"}{service.repository_source === "policy" ? <span className="pill neutral">set on service</span> : null}</dd>
        <dt>Newest release</dt>
        <dd>
          {upstream.newest ? <span className="v strong">{upstream.newest}</span> : <span className="muted">not known yet</span>}
          {upstream.newest_notes_url ? <> · <a href={upstream.newest_notes_url} rel="noreferrer">release notes</a></> : null}
          {upstream.newest ? (behind ? <span className="pill warn">newer than what runs</span> : isKnown ? <span className="pill ok">running</span> : <span className="pill neutral">as of the last good check</span>) : null}
        </dd>
        <dt>Release notes</dt>
        <dd>
          {source.kind && source.repository ? (
            <>
              {source.kind === "github" ? "GitHub" : "GitLab"} <a href={forgeUrl ?? undefined} className="mono" rel="noreferrer">{source.repository}</a>, {FROM[source.from ?? ""] ?? ""}
            </>
          ) : (
            <span className="muted">No source: set a GitHub or GitLab repository, or a changelog link, in the policy.</span>
          )}
          {label && source.from !== "policy" && source.from !== "catalog" ? <p className="hint">{label}</p> : null}
        </dd>
        <dt>Checked by</dt>
        <dd>
          {service.checked_by === "agent" ? (
            <>Your agents <span className="hint">(a private repository, read with the agents&apos; credentials)</span></>
          ) : service.checked_by === "server" ? (
            <>The server <span className="hint">(a registry it queries itself, without your agents)</span></>
          ) : (
            <span className="muted">Not checked yet</span>
          )}
        </dd>
        <dt>Last check</dt>
        <dd>
          {service.last_check.at ? <span title={formatWhen(service.last_check.at)}><When at={service.last_check.at} now={now} /></span> : <span className="muted">never</span>}
          {upstream.last_error ? <p className="alert compact" role="note"><strong>Last check failed:</strong> {upstream.last_error}</p> : quotaWait ? <span className="pill warn">waiting for quota</span> : isKnown ? <span className="pill ok">ok</span> : null}
          {quotaWait ? <p className="hint" data-testid="quota-wait">{quotaLine(quotaWait, now)}</p> : null}
        </dd>
      </dl>
      {canCheck ? <CheckNow service={service.name} /> : null}
    </section>
  );
}
