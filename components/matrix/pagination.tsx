// Page links for the matrix; plain links, so they work without JavaScript.
import { matrixHref, type MatrixParams } from "./search-params";

export function Pagination({ params, total, pageSize }: { params: MatrixParams; total: number; pageSize: number }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  const page = Math.min(params.page, pages);
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const link = (p: number, label: string, rel?: string) =>
    p < 1 || p > pages || p === page ? (
      <span className="button disabled" aria-disabled="true">{label}</span>
    ) : (
      <a className="button" href={matrixHref(params, { page: p })} rel={rel}>{label}</a>
    );
  return (
    <nav className="pager" aria-label="Pages">
      {link(1, "First")}
      {link(page - 1, "Previous", "prev")}
      <span className="pager-status" aria-current="page">
        Page {page} of {pages} <span className="muted">· {from.toLocaleString("en")}–{to.toLocaleString("en")} of {total.toLocaleString("en")}</span>
      </span>
      {link(page + 1, "Next", "next")}
      {link(pages, "Last")}
    </nav>
  );
}
