// Previous / next page links for long lists; plain links, no script.
export function Pager({ page, pages, total, href }: { page: number; pages: number; total: number; href: (page: number) => string }) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? <a className="button" href={href(page - 1)} rel="prev">Previous</a> : <span className="button disabled" aria-disabled="true">Previous</span>}
      <span className="pager-status" aria-current="page">Page {page} of {pages} <span className="muted">· {total.toLocaleString("en")} in all</span></span>
      {page < pages ? <a className="button" href={href(page + 1)} rel="next">Next</a> : <span className="button disabled" aria-disabled="true">Next</span>}
    </nav>
  );
}
