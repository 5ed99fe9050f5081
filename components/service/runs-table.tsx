// Where the service runs: each environment in pipeline order, each target in
// it, with the tag, the exact version, the digest and since when.
import { When } from "@/components/ui/format";
import { DriftMarkers } from "@/components/ui/drift";
import { lastReportAge, lastReportTitle } from "@/components/matrix/cell-text";
import type { ServiceDetail } from "@/lib/services/services/get-detail";

/** `focus`: the environment the page was opened at (a matrix cell's link), marked and scrolled to. */
export function RunsTable({ detail, now, focus = null }: { detail: ServiceDetail; now: Date; focus?: string | null }) {
  const cells = detail.row?.cells ?? [];
  if (cells.length === 0) {
    return <p className="muted">Nothing reports this service at the moment.</p>;
  }
  const production = new Set(detail.environments.filter((e) => e.production).map((e) => e.name));
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Versions per environment and target">
      <table className="data runs">
        <caption className="sr">Versions per environment and target</caption>
        <thead>
          <tr><th scope="col">Environment</th><th scope="col">Target</th><th scope="col">Tag</th><th scope="col">Version</th><th scope="col">Digest</th><th scope="col">Since</th></tr>
        </thead>
        <tbody>
          {cells.map((cell) =>
            cell.targets.map((t, i) => (
              <tr key={`${cell.environment}/${t.name}`} className={[i === 0 ? "group-start" : "", cell.environment === focus ? "focused" : "", t.state === "quiet" && !t.declared ? "quiet" : ""].join(" ").trim() || undefined}>
                {i === 0 ? (
                  <th scope="rowgroup" rowSpan={cell.targets.length} id={`env-${cell.environment}`} aria-current={cell.environment === focus ? "location" : undefined}>
                    <span className="env-name">{cell.environment}</span>
                    {production.has(cell.environment) ? <span className="prod">prod</span> : null}
                    <span className="cell-marks"><DriftMarkers kinds={cell.drifts} /></span>
                    {cell.eol && cell.eol.state !== "ok" ? <span className={`eol ${cell.eol.state}`}>{cell.eol.state === "passed" ? "EOL" : "EOL soon"} {cell.eol.eol_date}</span> : null}
                  </th>
                ) : null}
                <td>
                  {t.name}{t.declared ? <span className="git" title="Declared in the Compose files in Git">Git</span> : null}
                  {/* Its last report, not what runs now: never shown as live. */}
                  {t.state === "quiet" && !t.declared ? <span className="sub quiet-note" data-testid="quiet-note"><span className="pill warn">quiet</span> last report <span title={lastReportTitle(t.last_seen_at)}>{lastReportAge(t.last_seen_at, now)}</span></span> : null}
                </td>
                <td className="mono">{t.tag}</td>
                <td className="mono">{t.version ?? <span className="muted" title="A moving tag whose digest is not matched to a version yet">unresolved</span>}</td>
                <td className="mono muted" title={t.digest ?? undefined}>{t.digest ? `${t.digest.slice(7, 19)}` : "—"}</td>
                <td><When at={t.since} now={now} /></td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}
