// Which methods exist for which API path, derived from the operations table,
// so unknown routes and wrong methods answer problem+json (see proxy.ts).
import type { Operation } from "./operation";
import { ops } from "./operations";

type Entry = { pattern: RegExp; methods: Set<string> };

const EXTRA_ROUTES: { path: string; methods: string[] }[] = [
  { path: "/api/auth/{rest*}", methods: ["GET", "POST"] },
  { path: "/api/mcp", methods: ["POST"] },
];

/**
 * An operation's path template as a pattern: `{name}` matches one segment (captured, in the order of
 * `names`), `{rest*}` the rest of the path. `trailingSlash` also accepts one trailing slash.
 */
export function compilePathTemplate(template: string, opts: { trailingSlash?: boolean } = {}): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const body = template
    .split("/")
    .map((seg) => {
      if (seg === "{rest*}") return ".*";
      const name = /^\{(\w+)\}$/.exec(seg)?.[1];
      if (!name) return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(name);
      return "([^/]+)";
    })
    .join("/");
  return { pattern: new RegExp(`^${body}${opts.trailingSlash ? "/?" : ""}$`), names };
}

let table: Entry[] | undefined;

function routeTable(): Entry[] {
  if (table) return table;
  const byPath = new Map<string, Set<string>>();
  for (const op of Object.values(ops) as Operation[]) {
    if (!byPath.has(op.path)) byPath.set(op.path, new Set());
    byPath.get(op.path)!.add(op.method);
  }
  for (const r of EXTRA_ROUTES) byPath.set(r.path, new Set(r.methods));
  table = [...byPath].map(([path, methods]) => ({ pattern: compilePathTemplate(path, { trailingSlash: true }).pattern, methods }));
  return table;
}

/** `ok`, or why the request cannot match any API route. */
export function matchApiRoute(pathname: string, method: string): { kind: "ok" } | { kind: "not_found" } | { kind: "method"; allowed: string[] } {
  const entries = routeTable().filter((e) => e.pattern.test(pathname));
  if (entries.length === 0) return { kind: "not_found" };
  const allowed = new Set(entries.flatMap((e) => [...e.methods]));
  if (allowed.has("GET")) allowed.add("HEAD");
  if (method === "OPTIONS" || allowed.has(method)) return { kind: "ok" };
  return { kind: "method", allowed: [...allowed].sort() };
}
