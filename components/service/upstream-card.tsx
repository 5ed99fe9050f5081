// Upstream: the newest release with its notes, where release notes come
// from, who checks the repository, and the last check with its error.
import { formatWhen, When } from "@/components/ui/format";
import type { ServiceDetail } from "@/lib/services/services/get-detail";
import { CheckNow } from "./check-now";

const FROM: Record<string, string> = { policy: "set in the policy", catalog: "from the built-in catalog", image_label: "from the image's source label" };

export function UpstreamCard({ detail, now, canCheck }: { detail: ServiceDetail; now: Date; canCheck: boolean }) {
  const { service, upstream } = detail;
  const source = service.release_source;
  const forgeUrl = source.kind === "github" ? `https://github.com/${source.repository}` : source.kind === "gitlab" ? `https://${source.repository}` : null;
  const behind = upstream.newest && detail.oldest_running && upstream.newest !== detail.oldest_running;
  return (
    <section className="card" aria-labelledby="upstream-h">
      <h2 id="upstream-h">Upstream</h2>
      <dl className="facts">
        <dt>Repository</dt>
        <dd className="mono">{service.repository ?? "none yet"}{service.repository_source === "policy" ? <span className="pill neutral">set on service</span> : null}</dd>
        <dt>Newest release</dt>
        <dd>
          {upstream.newest ? <span className="v strong">{upstream.newest}</span> : <span className="muted">not known yet</span>}
          {upstream.newest_notes_url ? <> · <a href={upstream.newest_notes_url} rel="noreferrer">release notes</a></> : null}
          {upstream.newest ? (behind ? <span className="pill warn">newer than what runs</span> : <span className="pill ok">running</span>) : null}
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
        </dd>
        <dt>Checked by</dt>
        <dd>
          {service.checked_by === "agent" ? (
            <>Your agents <span className="hint">(a private repository, read with the agents&apos; credentials)</span></>
          ) : service.checked_by === "server" ? (
            <>The server <span className="hint">(a public registry)</span></>
          ) : (
            <span className="muted">Not checked yet</span>
          )}
        </dd>
        <dt>Last check</dt>
        <dd>
          {service.last_check.at ? <span title={formatWhen(service.last_check.at)}><When at={service.last_check.at} now={now} /></span> : <span className="muted">never</span>}
          {upstream.last_error ? <p className="alert compact" role="note"><strong>Last check failed:</strong> {upstream.last_error}</p> : service.last_check.at ? <span className="pill ok">ok</span> : null}
        </dd>
      </dl>
      {canCheck ? <CheckNow service={service.name} /> : null}
    </section>
  );
}
