// The one API route table, derived from the operations: which methods exist
// for which path (unknown routes and wrong methods answer problem+json before
// Next.js runs), and which operation a request names (the direct API path).
import type { Operation } from "./operation";
import { ops } from "./operations";

/** `pattern` allows a trailing slash (Next.js redirects it); `exact` is an operation's own path. */
type Entry = { pattern: RegExp; exact: RegExp | null; names: string[]; methods: Set<string>; ops: Map<string, Operation> };

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
  const byPath = new Map<string, Entry>();
  for (const op of Object.values(ops) as Operation[]) {
    let entry = byPath.get(op.path);
    if (!entry) {
      const { pattern: exact, names } = compilePathTemplate(op.path);
      entry = { pattern: compilePathTemplate(op.path, { trailingSlash: true }).pattern, exact, names, methods: new Set(), ops: new Map() };
      byPath.set(op.path, entry);
    }
    entry.methods.add(op.method);
    entry.ops.set(op.method, op);
  }
  for (const r of EXTRA_ROUTES) {
    byPath.set(r.path, { pattern: compilePathTemplate(r.path, { trailingSlash: true }).pattern, exact: null, names: [], methods: new Set(r.methods), ops: new Map() });
  }
  table = [...byPath.values()];
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

/**
 * The operation at exactly this path and method (HEAD is GET's), with its decoded path
 * parameters; null for a trailing slash, OPTIONS, an unknown path or method, or a bad escape.
 */
export function findOperation(pathname: string, method: string): { op: Operation; params: Record<string, string> } | null {
  const wanted = method === "HEAD" ? "GET" : method;
  for (const entry of routeTable()) {
    const op = entry.ops.get(wanted);
    const m = op && entry.exact?.exec(pathname);
    if (!op || !m) continue;
    const params: Record<string, string> = {};
    try {
      entry.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)));
    } catch {
      return null;
    }
    return { op, params };
  }
  return null;
}
