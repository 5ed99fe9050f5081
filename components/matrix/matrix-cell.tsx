// What one matrix cell, row header and upstream cell show. Each renderer
// returns its whole <td>/<th>, kept lean: a page of 100 services × several
// environments must stay well under 300 KB, counting React's payload.
import { CHART_SERVICE_PREFIX } from "@/lib/domain/charts";
import type { DriftKind } from "@/lib/domain/policy";
import { DRIFT_KIND_NAME } from "@/lib/domain/words";
import {
  CELL_ORDER, cellHref, cellVersionsText, driftDetailOf, driftTooltipText, eolTooltipText, isWithinDelay, quietNote, tooltipId, upstreamNote,
} from "./cell-text";
import type { MatrixCell, MatrixRow } from "./matrix-types";

export function ServiceHeader({ row }: { row: MatrixRow }) {
  return (
    <th scope="row">
      {row.kind === "chart" ? (
        <>
          <a href={`/services/${encodeURIComponent(row.name)}`}><span className="muted">{CHART_SERVICE_PREFIX}</span>{row.name.slice(CHART_SERVICE_PREFIX.length)}</a>
          <span className="prod kind" title="A Helm release: its versions are chart versions; the pods it runs are services of their own">chart</span>
        </>
      ) : (
        <a href={`/services/${encodeURIComponent(row.name)}`}>{row.name}</a>
      )}
      {row.team ? <small>{row.team}</small> : null}
    </th>
  );
}

/**
 * A drift marker: a button only so that it takes keyboard focus; its tooltip
 * shows on hover and focus (CSS) and describes it to screen readers.
 */
function DriftMarkerTip({ cell, kind, service, now }: { cell: MatrixCell; kind: DriftKind; service: string; now: Date }) {
  const detail = driftDetailOf(cell, kind);
  const id = tooltipId(service, cell.environment, kind);
  return (
    <span className="dm">
      <button type="button" className={isWithinDelay(detail) ? `k-${kind} calm` : `k-${kind}`} aria-label={DRIFT_KIND_NAME[kind]} aria-describedby={id} />
      <span role="tooltip" id={id}>{driftTooltipText(kind, detail, now)}</span>
    </span>
  );
}

/** The versions link to the service page at this environment; each marker explains itself. */
export function MatrixCellView({ cell, service, now, newest = null, "data-label": label }: { cell: MatrixCell | null; service: string; now: Date; newest?: string | null; "data-label"?: string }) {
  if (!cell) return <td className="none" data-label={label} />;
  const kinds = CELL_ORDER.filter((k) => cell.drifts.includes(k));
  const eol = cell.eol && cell.eol.state !== "ok" ? cell.eol : null;
  const unresolved = cell.version === null && !cell.declared;
  const quiet = quietNote(cell, now);
  const eolId = `${tooltipId(service, cell.environment, "eol")}-date`;
  return (
    <td className={[cell.declared ? "decl" : unresolved ? "unres" : "", cell.quiet ? "quiet" : ""].filter(Boolean).join(" ") || undefined} data-label={label}>
      <a href={cellHref(service, cell.environment)}>{cellVersionsText(cell)}</a>
      {cell.declared ? <i className="git" /> : null}
      {kinds.map((k) => <DriftMarkerTip key={k} cell={cell} kind={k} service={service} now={now} />)}
      {eol ? (
        <span className="dm">
          <b className={`eol ${eol.state}`} tabIndex={0} aria-describedby={eolId}>{eol.state === "passed" ? "EOL" : "EOL soon"}</b>
          <span role="tooltip" id={eolId}>{eolTooltipText(eol, newest)}</span>
        </span>
      ) : null}
      {cell.declared ? <span className="sr">; declared in Git</span> : null}
      {quiet ? <small className="quiet-note">{quiet}</small> : null}
    </td>
  );
}

/** The newest release, and what is wrong with that knowledge when it is not fresh. */
export function UpstreamView({ row, now, "data-label": label }: { row: MatrixRow; now: Date; "data-label"?: string }) {
  const note = upstreamNote(row.upstream, now);
  return (
    <td className={note?.tone === "bad" ? "up-failed" : note?.tone === "warn" ? "up-stale" : undefined} data-label={label}>
      {row.upstream.newest ?? "—"}
      {note ? <small>{note.text}</small> : null}
    </td>
  );
}
