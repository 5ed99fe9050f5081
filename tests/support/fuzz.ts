// Shared by the bad-input tests: raw HTTP requests with a deadline, the checks
// every rejected request must pass (4xx problem+json, no stack trace), a
// browser session for admin routes, and a snapshot of everything stored for
// one workspace, to prove that rejected writes change nothing.
import { createHash, randomInt } from "node:crypto";
import http from "node:http";
import { expect } from "vitest";
import { baseUrl, testDb } from "./api";

export type RawResponse = { status: number; headers: Headers; text: string; contentType: string; ms: number };

/** One request, sent as is. A hang fails the test after `timeoutMs`, never the whole run. */
export async function rawRequest(
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: BodyInit | Uint8Array | null; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const started = Date.now();
  const res = await fetch(baseUrl() + path, {
    method,
    headers: opts.headers,
    body: (opts.body ?? undefined) as BodyInit | undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    // Streams as bodies need half-duplex in Node's fetch.
    ...(opts.body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, contentType: res.headers.get("content-type") ?? "", ms: Date.now() - started };
}

/** The same, with the path sent byte for byte (fetch resolves "..", "%2e%2e" and "." itself, as browsers do). */
export function exactPathRequest(method: string, path: string, opts: { headers?: Record<string, string>; body?: string; timeoutMs?: number } = {}): Promise<RawResponse> {
  const started = Date.now();
  const url = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: opts.headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
        resolve({ status: res.statusCode ?? 0, headers, text, contentType: headers.get("content-type") ?? "", ms: Date.now() - started });
      });
    });
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer within ${opts.timeoutMs ?? 30_000} ms`)));
    req.on("error", reject);
    req.end(opts.body);
  });
}

// What leaks look like: V8 stack frames, source paths, Prisma's and Node's own error texts.
const LEAKS = [/\n\s+at /, /\bat .+\(.*:\d+:\d+\)/, /node_modules/, /\/work\//, /\.tsx?:\d+/, /Invalid `prisma/, /PrismaClient/, /\bTypeError\b/, /\bReferenceError\b/, /SyntaxError: /];

export function expectNoLeak(text: string, what: string) {
  for (const re of LEAKS) expect(re.test(text), `${what}: body leaks internals (${re}): ${text.slice(0, 300)}`).toBe(false);
}

/** A rejected request: 4xx, problem+json with the RFC 9457 members, nothing internal. */
export function expectProblem(res: RawResponse, what: string) {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.contentType, what).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  expect(body, what).toMatchObject({ type: expect.any(String), title: expect.any(String), status: res.status, detail: expect.any(String) });
  expectNoLeak(res.text, what);
}

/** Signs in through Auth.js as a browser would; returns the Cookie header of the session. */
export async function signInCookie(email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  // Each sign-in from an address of its own (loopback's X-Forwarded-For is believed), so none meets another's rate limit.
  const ip = `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  const csrfRes = await fetch(`${baseUrl()}/api/auth/csrf`, { headers: { "x-forwarded-for": ip } });
  keep(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl()}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), origin: baseUrl(), "x-forwarded-for": ip },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: baseUrl() + "/" }),
    redirect: "manual",
  });
  keep(res);
  const session = [...jar.keys()].find((k) => k.includes("session-token"));
  if (!session) throw new Error(`sign-in failed: ${res.status} ${res.headers.get("location")}`);
  return cookie();
}

// Columns that change without any request: on every authenticated request
// (last use), and when the scheduler reads a Compose-in-Git target.
const VOLATILE = ["last_used_at", "last_commit", "last_error", "refresh_due_at"];

/** Workspace rows that are the scheduler's own: the marker of the last drift evaluation, rewritten by every one. */
const SCHEDULER_TABLES = ["drift_evaluations"];

let tablesPromise: Promise<{ name: string; scoped: string }[]> | undefined;

/**
 * Every table that can hold this workspace's rows, from information_schema:
 * tables with a workspace_id column, the workspace itself, its users (via
 * memberships) and deliveries (via rules). Tables shared by all workspaces
 * (upstream repositories, tags, releases, end-of-life data, login attempts,
 * cache) are written by the scheduler and by concurrent test files, so they
 * are left out, and so are SCHEDULER_TABLES.
 */
function workspaceTables() {
  tablesPromise ??= (async () => {
    const rows = await testDb().$queryRawUnsafe<{ table_name: string; has_ws: boolean }[]>(
      `SELECT t.table_name, bool_or(c.column_name = 'workspace_id') AS has_ws
         FROM information_schema.tables t JOIN information_schema.columns c USING (table_schema, table_name)
        WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        GROUP BY t.table_name ORDER BY t.table_name`,
    );
    const out: { name: string; scoped: string }[] = [];
    for (const r of rows) {
      if (SCHEDULER_TABLES.includes(r.table_name)) continue;
      const q = `"${r.table_name}"`;
      if (r.has_ws) out.push({ name: r.table_name, scoped: `SELECT * FROM ${q} WHERE workspace_id = $1::uuid` });
      else if (r.table_name === "workspaces") out.push({ name: r.table_name, scoped: `SELECT * FROM ${q} WHERE id = $1::uuid` });
      else if (r.table_name === "users") out.push({ name: r.table_name, scoped: `SELECT * FROM ${q} WHERE id IN (SELECT user_id FROM memberships WHERE workspace_id = $1::uuid)` });
      else if (r.table_name === "deliveries") out.push({ name: r.table_name, scoped: `SELECT * FROM ${q} WHERE rule_id IN (SELECT id FROM notification_rules WHERE workspace_id = $1::uuid)` });
    }
    return out;
  })();
  return tablesPromise;
}

export type Snapshot = Record<string, string>;

/** Row count and a hash of every row, per table, for one workspace, in one query. */
export async function snapshot(workspaceId: string): Promise<Snapshot> {
  const tables = await workspaceTables();
  const drop = VOLATILE.map((c) => ` - '${c}'`).join("");
  const parts = tables.map(
    (t) =>
      `SELECT '${t.name}' AS t, count(*)::text || ':' || md5(coalesce(string_agg((to_jsonb(x)${drop})::text, '|' ORDER BY (to_jsonb(x)${drop})::text), '')) AS v FROM (${t.scoped}) x`,
  );
  const rows = await testDb().$queryRawUnsafe<{ t: string; v: string }[]>(parts.join(" UNION ALL "), workspaceId);
  return Object.fromEntries(rows.map((r) => [r.t, r.v]));
}

export function snapshotDigest(s: Snapshot): string {
  return createHash("sha256").update(JSON.stringify(s)).digest("hex").slice(0, 16);
}

/** Tally of generated cases per category and the statuses they got, printed at the end of a file. */
export class Tally {
  private rows = new Map<string, { tried: number; statuses: Map<number, number> }>();
  add(category: string, status: number) {
    let row = this.rows.get(category);
    if (!row) this.rows.set(category, (row = { tried: 0, statuses: new Map() }));
    row.tried++;
    row.statuses.set(status, (row.statuses.get(status) ?? 0) + 1);
  }
  total(category?: string) {
    return category ? (this.rows.get(category)?.tried ?? 0) : [...this.rows.values()].reduce((n, r) => n + r.tried, 0);
  }
  print(title: string) {
    const lines = [...this.rows].map(([c, r]) => `  ${c.padEnd(48)} ${String(r.tried).padStart(5)}  ${[...r.statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(" ")}`);
    console.log(`${title}\n${lines.join("\n")}`);
  }
}
