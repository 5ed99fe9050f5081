// Open drift of the service, and the acknowledgements that quiet it.
import { DRIFT_HELP, DriftPill } from "@/components/ui/drift";
import { Age, formatWhen, When } from "@/components/ui/format";
import { DRIFT_STATE_NAME } from "@/lib/domain/words";
import type { ServiceDetail } from "@/lib/services/services/get-detail";

const UNKNOWN_UPSTREAM = { failed: "the last check failed", stale: "no check has succeeded recently", unchecked: "it has not been checked yet" } as const;

export function DriftList({ detail, now }: { detail: ServiceDetail; now: Date }) {
  const state = detail.service.repository ? detail.service.upstream.state : "ok";
  const unknown = state === "ok" ? null : <p className="hint" data-testid="drift-upstream-unknown">Upstream drift is not known: {UNKNOWN_UPSTREAM[state]}.</p>;
  if (detail.drifts.length === 0) {
    return unknown ?? <p className="muted">No open drift. Everything runs what the policy and the pipeline expect.</p>;
  }
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Open drift">
      {unknown}
      <table className="data">
        <caption className="sr">Open drift</caption>
        <thead>
          <tr><th scope="col">Kind</th><th scope="col">Environment</th><th scope="col">Runs</th><th scope="col">Expected</th><th scope="col">Open for</th><th scope="col">State</th></tr>
        </thead>
        <tbody>
          {detail.drifts.map((d) => (
            <tr key={d.id}>
              <td title={DRIFT_HELP[d.kind]}><DriftPill kind={d.kind} /></td>
              <td>{d.environment}{d.target ? <span className="sub">{d.target}</span> : null}</td>
              <td className="mono">{d.running ?? "—"}</td>
              <td className="mono">{d.expected ?? "—"}</td>
              <td><Age at={d.opened_at} now={now} /></td>
              <td>
                {d.state === "announced" ? <span className="pill bad">{DRIFT_STATE_NAME.announced}</span> : <span className="pill warn">{DRIFT_STATE_NAME.open}</span>}
                {d.silenced ? <span className="pill neutral">put off</span> : null}
                {d.announced_at ? <span className="sub">notified <When at={d.announced_at} now={now} /></span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AckList({ detail, now }: { detail: ServiceDetail; now: Date }) {
  if (detail.acks.length === 0) return <p className="muted">No acknowledgements in force.</p>;
  return (
    <ul className="acks">
      {detail.acks.map((a) => (
        <li key={a.id}>
          <span className="pill neutral">{a.kind === "release" ? "release" : "all drift"}</span>
          <span>{a.environment ? `in ${a.environment}` : "in every environment"}</span>
          {a.until_version ? <span>until <span className="v">{a.until_version}</span> runs</span> : null}
          {a.expires_at ? <span>{a.until_version ? "or " : ""}until {formatWhen(a.expires_at)}</span> : null}
          <span className="muted">by {a.created_by ?? "someone"}, <When at={a.created_at} now={now} /></span>
        </li>
      ))}
    </ul>
  );
}
