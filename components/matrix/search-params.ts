// The matrix's state lives in the URL: filters, sort and page. Parsed
// leniently (an unknown value is dropped, not an error page) and written
// back in one canonical order so links and bookmarks stay stable.
import { DRIFT_KIND_LIST } from "@/components/ui/drift";
import type { DriftKind } from "@/lib/domain/policy";

export const PAGE_SIZE = 100;

/**
 * Rows a page: 100 up to four environments, fewer beyond, so that one page
 * (markup plus React's payload) stays under 300 KB however wide the pipeline.
 */
export function pageSizeFor(environments: number): number {
  return environments <= 4 ? PAGE_SIZE : Math.max(25, Math.floor((PAGE_SIZE * 4) / environments));
}

export const SORTS = {
  name: "Name, A to Z",
  "-name": "Name, Z to A",
  attention: "Needs attention first",
  team: "Team, A to Z",
} as const;
export type SortKey = keyof typeof SORTS;

export type MatrixParams = {
  q: string;
  team: string;
  env: string;
  kind: DriftKind | "";
  sort: SortKey;
  page: number;
};

type Raw = Record<string, string | string[] | undefined>;

const first = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? "") : (v ?? "")).trim();
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,99}$/;

export function parseMatrixParams(raw: Raw): MatrixParams {
  const kind = first(raw.kind);
  const sort = first(raw.sort);
  const page = Number.parseInt(first(raw.page), 10);
  return {
    q: first(raw.q).slice(0, 200),
    team: first(raw.team).slice(0, 100),
    env: NAME.test(first(raw.env)) ? first(raw.env) : "",
    kind: (DRIFT_KIND_LIST as readonly string[]).includes(kind) ? (kind as DriftKind) : "",
    sort: sort in SORTS ? (sort as SortKey) : "name",
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/** `?q=…&team=…` with defaults left out; `page` only when above 1. */
export function matrixHref(params: MatrixParams, change: Partial<MatrixParams> = {}): string {
  const next = { ...params, ...change };
  const query = new URLSearchParams();
  if (next.q) query.set("q", next.q);
  if (next.team) query.set("team", next.team);
  if (next.env) query.set("env", next.env);
  if (next.kind) query.set("kind", next.kind);
  if (next.sort !== "name") query.set("sort", next.sort);
  if (next.page > 1) query.set("page", String(next.page));
  const s = query.toString();
  return s ? `/?${s}` : "/";
}

export function hasFilters(p: MatrixParams): boolean {
  return Boolean(p.q || p.team || p.env || p.kind);
}
