// What one matrix cell, row header and upstream cell show. Each renderer
// returns its whole <td>/<th>, kept lean: a page of 100 services × several
// environments must stay well under 300 KB, counting React's payload.
import { isChartKey } from "@/lib/domain/charts";
import type { DriftKind } from "@/lib/domain/policy";
import {
  CELL_ORDER, cellHref, cellVersionsText, driftDetailOf, driftTooltipText, isWithinDelay, tooltipId, upstreamNote,
} from "./cell-text";
import type { MatrixCell, MatrixRow } from "./matrix-types";

export function ServiceHeader({ row }: { row: MatrixRow }) {
  return (
    <th scope="row">
      <a href={`/services/${encodeURIComponent(row.name)}`}>{row.name}</a>
      {row.upstream.repository && isChartKey(row.upstream.repository) ? <span className="prod kind" title="A Helm release: versions are chart versions">chart</span> : null}
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
      <button type="button" className={isWithinDelay(detail) ? `k-${kind} calm` : `k-${kind}`} aria-label={`${kind} drift`} aria-describedby={id} />
      <span role="tooltip" id={id}>{driftTooltipText(kind, detail, now)}</span>
    </span>
  );
}

/** The versions link to the service page at this environment; each marker explains itself. */
export function MatrixCellView({ cell, service, now, "data-label": label }: { cell: MatrixCell | null; service: string; now: Date; "data-label"?: string }) {
  if (!cell) return <td className="none" data-label={label} />;
  const kinds = CELL_ORDER.filter((k) => cell.drifts.includes(k));
  const eol = cell.eol && cell.eol.state !== "ok" ? cell.eol : null;
  const unresolved = cell.version === null && !cell.declared;
  return (
    <td className={cell.declared ? "decl" : unresolved ? "unres" : undefined} data-label={label}>
      <a href={cellHref(service, cell.environment)}>{cellVersionsText(cell)}</a>
      {cell.declared ? <i className="git" /> : null}
      {kinds.map((k) => <DriftMarkerTip key={k} cell={cell} kind={k} service={service} now={now} />)}
      {eol ? <b className={`eol ${eol.state}`}>{eol.state === "passed" ? "EOL" : "EOL soon"}</b> : null}
      {cell.declared ? <span className="sr">; declared in Git</span> : null}
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
