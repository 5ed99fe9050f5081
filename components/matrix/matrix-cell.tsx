// What one matrix cell, row header and upstream cell show. Each renderer
// returns its whole <td>/<th>, kept lean: a page of 100 services × several
// environments must stay well under 300 KB, counting React's payload.
import { timeAgo } from "@/components/ui/format";
import type { MatrixCell, MatrixRow } from "./matrix-model";

export function ServiceHeader({ row }: { row: MatrixRow }) {
  return (
    <th scope="row">
      <a href={`/services/${encodeURIComponent(row.name)}`}>{row.name}</a>
      {row.team ? <small>{row.team}</small> : null}
    </th>
  );
}

const CELL_ORDER = ["eol", "declared", "inconsistent", "env", "upstream"] as const;


/** Markers are drawn by CSS from their class; one visually hidden sentence says the same in words. */
export function MatrixCellView({ cell }: { cell: MatrixCell | null }) {
  if (!cell) return <td className="none" />;
  const kinds = CELL_ORDER.filter((k) => cell.drifts.includes(k));
  const eol = cell.eol && cell.eol.state !== "ok" ? cell.eol : null;
  const words = [
    cell.declared ? "declared in Git" : null,
    // The spec's own short names (env, upstream, …); the legend above the table spells them out.
    kinds.length ? `drift: ${kinds.join(", ")}` : null,
  ].filter(Boolean);
  const unresolved = cell.version === null && !cell.declared;
  return (
    <td className={cell.declared ? "decl" : unresolved ? "unres" : undefined}>
      {cell.display}
      {cell.declared ? <i className="git" /> : null}
      {/* Fixed slots rather than a keyed list: keys would travel in React's payload for every cell. */}
      {kinds[0] ? <i className={`k-${kinds[0]}`} /> : null}
      {kinds[1] ? <i className={`k-${kinds[1]}`} /> : null}
      {kinds[2] ? <i className={`k-${kinds[2]}`} /> : null}
      {kinds[3] ? <i className={`k-${kinds[3]}`} /> : null}
      {kinds[4] ? <i className={`k-${kinds[4]}`} /> : null}
      {eol ? <b className={`eol ${eol.state}`}>{eol.state === "passed" ? "EOL" : "EOL soon"}</b> : null}
      {words.length ? <span className="sr">{`; ${words.join("; ")}`}</span> : null}
    </td>
  );
}

const STALE_MS = 24 * 3_600_000;

/** The newest release; when a check is overdue (or never ran) that is said too, otherwise the service page has the details. */
export function UpstreamView({ row, now }: { row: MatrixRow; now: Date }) {
  const { newest, checked_at: checkedAt } = row.upstream;
  const stale = !checkedAt || now.getTime() - new Date(checkedAt).getTime() > STALE_MS;
  return (
    <td>
      {newest ?? "—"}
      {stale ? <small>{checkedAt ? `checked ${timeAgo(checkedAt, now)}` : "not checked yet"}</small> : null}
    </td>
  );
}
