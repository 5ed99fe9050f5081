// Property-based fuzzing of every API operation. The
// operations come from the same table that builds the routes and the OpenAPI
// document, so a new route is fuzzed without touching this file. For each
// generated request: no 500 and no hang; every error is problem+json without
// internals; every answer matches the OpenAPI document; and a rejected write
// leaves every row of the workspace exactly as it was.
// Reproduce a failure with FUZZ_SEED=<seed printed by fast-check>.
import fc from "fast-check";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "@/lib/api/operation";
import { ops } from "@/lib/api/operations";
import { createAck } from "@/lib/services/acks/create";
import { createEnvironment } from "@/lib/services/environments/create";
import { createRule } from "@/lib/services/notification-rules/create";
import { createService } from "@/lib/services/services/create";
import { baseUrl, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { expectNoLeak, expectProblem, rawRequest, signInCookie, snapshot, Tally } from "../support/fuzz";
import { assertMatchesOpenApi } from "../support/openapi";

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
// Bounded so that the whole file stays well under 90 s on a loaded 2-core machine.
const RUNS = Number(process.env.FUZZ_RUNS ?? 24);
const OPERATIONS = Object.values(ops) as Operation[];
const tally = new Tally();

// ─── Generators ────────────────────────────────────────────────────────────

/** Lone surrogates replaced, as a browser would before encoding a URL. */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

const HUGE = "x".repeat(300_000);
const NAMEISH = ["web", "prod", "staging", "nginx", "1.2.3", "72h", "release", "drift", "webhook", "viewer", "member", "true", "30d", "patch", "2026-01", "https://example.com/hook"];

/** Strings that have broken servers before: traversal, NUL, control characters, odd Unicode, sizes. */
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(
    "", " ", "../", "../../etc/passwd", "..%2f..%2f", "%2e%2e%2f", "a\u0000b", "\u0000", "\r\nX-Injected: 1", "\ud800", "\uffff", "😀".repeat(50),
    "<script>alert(1)</script>", "' OR 1=1 --", "${jndi:ldap://x}", "-1", "1e309", "NaN", "[]", "{}", "null", "a".repeat(201), "a".repeat(5000),
    "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-4fff-bfff-ffffffffffff", "(a+)+$", "^(a|a)*$",
  ),
  fc.constantFrom(...NAMEISH),
  fc.uuid(),
);

/** Any JSON value, with the nasty strings mixed in. */
const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308, 2 ** 31, -(2 ** 31) - 1),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("v"), { maxKeys: 4 }),
  ),
})).v;

function objectKeys(schema: z.ZodType | undefined): string[] {
  let s = schema as unknown as { shape?: Record<string, unknown>; _zod?: { def?: Record<string, unknown> } } | undefined;
  for (let i = 0; s && i < 5; i++) {
    if (s.shape) return Object.keys(s.shape);
    const def = s._zod?.def ?? {};
    s = (def.in ?? def.innerType ?? def.schema) as typeof s;
  }
  return [];
}

/**
 * A valid body for some operations, so that mutating one field at a time
 * reaches the services' own checks. Operations without an example (new ones
 * too) are still fuzzed with their schema's field names.
 */
function examples(): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    createEnvironment: { name: "qa", position: 5, production: false },
    updateEnvironment: { position: 2, production: true },
    createService: { name: "api", team: "core", policy: { track: "minor" } },
    updateService: { team: "core", application: "shop", policy: { track: "minor", pin_major: 1, tag_filter: "^1\\." } },
    createToken: { name: "ci", role: "viewer" },
    postAgentReport: {
      environment: "prod", observed_at: now, target: { name: "docker@host-1", kind: "docker" },
      workloads: [{ service: "web", container: "nginx", main: true, image: "nginx:1.27", digest: null, platform_digest: null, platform: "linux/amd64", since: now }],
      registry_results: [],
    },
    createTarget: { environment: "prod", kind: "compose_git", repository_url: "/nonexistent/repo.git", branch: "main", paths: ["compose.yaml"] },
    createAck: { service: "web", kind: "release", until_version: "2.0.0", environment: "prod", duration: "72h" },
    createNotificationRule: { name: "n", channel: "webhook", config: { url: "https://hooks.example.test/x", secret: "0123456789abcdef", headers: { "X-Token": "t" } }, events: ["drift_detected"], kinds: ["upstream"], services: ["web"] },
    updateNotificationRule: { name: "renamed", enabled: false, config: { headers: { "X-Other": "v" } } },
  };
}

type Path = (string | number)[];

function nodePaths(v: unknown, prefix: Path = []): Path[] {
  if (v === null || typeof v !== "object") return [];
  const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  return entries.flatMap(([k, child]) => [[...prefix, k], ...nodePaths(child, [...prefix, k])]);
}

/** The example with one node replaced, removed, or given an extra sibling. */
function mutate(example: unknown, at: Path, action: "set" | "delete" | "extra", value: unknown, extraKey: string): unknown {
  const copy = structuredClone(example) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const k of at.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = at[at.length - 1]!;
  if (action === "set") parent[last] = value;
  else if (action === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (!Array.isArray(parent)) parent[`${extraKey}_`] = value;
  else parent.push(value);
  return copy;
}

/** A body: the operation's own fields with wrong, missing, extra or hostile values; or not an object at all. */
function bodyArb(op: Operation) {
  const keys = objectKeys(op.body);
  const fieldValue = fc.oneof(jsonish, fc.constantFrom(...NAMEISH), fc.constant(HUGE));
  const fields = keys.length
    ? fc.tuple(fc.subarray(keys), fc.dictionary(fc.string({ maxLength: 12 }), jsonish, { maxKeys: 2 })).chain(([picked, extra]) =>
        fc.tuple(...picked.map(() => fieldValue)).map((values) => ({ ...extra, ...Object.fromEntries(picked.map((k, i) => [k, values[i]])) })),
      )
    : fc.dictionary(fc.string({ maxLength: 12 }), jsonish, { maxKeys: 4 });
  const example = examples()[op.id];
  const paths = example === undefined ? [] : nodePaths(example);
  const mutated = paths.length
    ? fc
        .record({ at: fc.constantFrom(...paths), action: fc.constantFrom("set", "set", "set", "delete", "extra" as const), value: fieldValue, extraKey: fc.string({ maxLength: 8 }) })
        .map(({ at, action, value, extraKey }) => ({ kind: `example, ${action} /${at.join("/")}`, raw: JSON.stringify(mutate(example, at, action, value, extraKey)) as string | null }))
    : fields.map((v) => ({ kind: "fields", raw: JSON.stringify(v) as string | null }));
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 3, arbitrary: fields.map((v) => ({ kind: "fields", raw: JSON.stringify(v) as string | null })) },
    { weight: 2, arbitrary: jsonish.map((v) => ({ kind: "json-value", raw: JSON.stringify(v) ?? "null" })) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 60 }).map((s) => ({ kind: "not-json", raw: s })) },
    { weight: 1, arbitrary: fc.constant({ kind: "no-body", raw: null as string | null }) },
  );
}

const contentTypeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant("application/json") },
  { weight: 3, arbitrary: fc.constantFrom("application/json; charset=utf-8", "application/merge-patch+json", "APPLICATION/JSON", "application/json; charset=latin1") },
  { weight: 3, arbitrary: fc.constantFrom("", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/jsonx", ";;;", "application/") },
);

/** Extra headers: mostly none; sometimes a garbled Authorization, a foreign Origin, odd Accept or Content-Length. */
const headersArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant({} as Record<string, string>) },
  { weight: 1, arbitrary: fc.constantFrom("Bearer", "Bearer ", "Bearer dw_nope", "Bearer dwa_nope", "Basic Zm9vOmJhcg==", "dw_x", "Bearer " + "a".repeat(8000)).map((v) => ({ authorization: v })) },
  { weight: 1, arbitrary: fc.constantFrom("application/xml", "*/*", "text/html", "application/problem+json;q=0", "") .map((v) => ({ accept: v })) },
  { weight: 1, arbitrary: fc.constantFrom("evil.example", "", "localhost:1").map((v) => ({ "x-forwarded-host": v })) },
);

/** A path segment: a valid-looking value or a hostile one, sent encoded or (when the URL allows it) raw. */
const segmentArb = fc.tuple(nastyString, fc.constantFrom("encoded", "encoded", "encoded", "raw")).map(([s, how]) => {
  const safe = wellFormed(s);
  if (how === "raw" && /^[\x21-\x7e]*$/.test(safe) && !safe.includes("?") && !safe.includes("#")) return safe === "" ? "%20" : safe;
  return encodeURIComponent(safe) || "%20";
});

function queryArb(op: Operation) {
  const keys = objectKeys(op.query);
  const value = fc.oneof(
    { weight: 6, arbitrary: nastyString },
    { weight: 4, arbitrary: fc.constantFrom(...NAMEISH) },
    { weight: 1, arbitrary: fc.constant(HUGE.slice(0, 20_000)) },
  );
  return fc
    .tuple(
      fc.subarray(keys),
      fc.array(fc.tuple(fc.string({ maxLength: 10 }), nastyString), { maxLength: 2 }),
    )
    .chain(([picked, extra]) =>
      fc.tuple(...picked.map(() => fc.array(value, { minLength: 1, maxLength: 2 }))).map((values) => {
        const q = new URLSearchParams();
        picked.forEach((k, i) => values[i]!.forEach((v) => q.append(k, wellFormed(v))));
        extra.forEach(([k, v]) => q.append(wellFormed(k), wellFormed(v)));
        return q.toString();
      }),
    );
}

type Fixtures = { names: string[]; ids: string[] };

/** Objects that exist in a workspace, so that generated paths also reach real objects. */
async function seed(ws: TestWorkspace): Promise<Fixtures> {
  const ctx = ws.ctx;
  await createEnvironment({ ctx, input: { name: "prod", position: 1, production: true } });
  await createService({ ctx, input: { name: "web" } });
  // Loopback port 9 refuses at once, so a test send answers quickly.
  const rule = await createRule({ ctx, input: { name: "hook", channel: "webhook", config: { url: "http://127.0.0.1:9/hook", secret: "0123456789abcdef" }, allow_private: true } });
  const ack = await createAck({ ctx, input: { service: "web", kind: "drift", duration: "72h" } });
  const viewer = await testDb().apiToken.findFirstOrThrow({ where: { workspaceId: ws.id, name: "viewer" } });
  return { names: ["web", "prod"], ids: [rule.id, ack.id, viewer.id] };
}

function caseArb(op: Operation, fixtures: Fixtures) {
  const paramNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const param = (name: string) =>
    fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...(name === "id" ? fixtures.ids : fixtures.names)) }, { weight: 3, arbitrary: segmentArb });
  const hasBody = op.method !== "GET" && op.method !== "DELETE";
  return fc.record({
    params: fc.tuple(...paramNames.map(param)),
    query: queryArb(op),
    body: hasBody ? bodyArb(op) : fc.constant({ kind: "no-body", raw: null as string | null }),
    contentType: contentTypeArb,
    headers: headersArb,
  });
}

// ─── The property ──────────────────────────────────────────────────────────

/** fc.assert without shrinking (each case is a request), and counterexamples short enough to read. */
async function assertProperty<T>(property: fc.IAsyncProperty<T>) {
  try {
    await fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
  } catch (err) {
    const cause = (err as Error).cause;
    const message = `${String((err as Error).message)}\n${cause instanceof Error ? cause.message : ""}`.replace(/(.)\1{99,}/g, (m, c: string) => `${c}×${m.length}`);
    throw new Error(message.slice(0, 6000));
  }
}

let readWs: TestWorkspace;
let readCookie: string;
let readFixtures: Fixtures;

beforeAll(async () => {
  readWs = await makeWorkspace("fuzz-read");
  readFixtures = await seed(readWs);
  readCookie = await signInCookie(readWs.owner.email, readWs.owner.password);
}, 120_000);

/** After an accepted write, wait until work it started in the background (drift evaluation) has settled. */
async function settle(workspaceId: string) {
  let last = await snapshot(workspaceId);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 150));
    const now = await snapshot(workspaceId);
    if (JSON.stringify(now) === JSON.stringify(last)) return;
    last = now;
  }
}

afterAll(() => {
  tally.print(`fuzz-api: ${tally.total()} generated requests over ${OPERATIONS.length} operations (seed ${SEED}, ${RUNS} runs each)`);
});

function credentials(op: Operation, ws: TestWorkspace, cookie: string): Record<string, string> {
  if (op.auth === "public") return {};
  if (op.auth === "agent") return { authorization: `Bearer ${ws.agentKey}` };
  // Admin routes take a browser session (API tokens are viewer or member); writes from a session must be same-origin.
  if (op.auth === "admin") return { cookie, origin: baseUrl() };
  return { authorization: `Bearer ${ws.member}` };
}

describe("every API operation answers generated malformed input with a 4xx problem, never a 500", () => {
  it("covers every operation in the table", () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(30);
  });

  for (const op of OPERATIONS) {
    const write = op.method !== "GET";
    it(`${op.method} ${op.path}`, async () => {
      // Writes get a workspace of their own, so the snapshot sees only this operation's effects.
      const ws = write ? await makeWorkspace("fuzz-w") : readWs;
      const fixtures = write ? await seed(ws) : readFixtures;
      const cookie = write && op.auth === "admin" ? await signInCookie(ws.owner.email, ws.owner.password) : readCookie;
      await assertProperty(
        fc.asyncProperty(caseArb(op, fixtures), async (c) => {
          let i = 0;
          const path = op.path.replace(/\{\w+\}/g, () => c.params[i++]!) + (c.query ? `?${c.query}` : "");
          const headers: Record<string, string> = { ...credentials(op, ws, cookie), ...c.headers };
          if (c.body.raw !== null && c.contentType) headers["content-type"] = c.contentType;
          const before = write ? await snapshot(ws.id) : null;
          const res = await rawRequest(op.method, path, { headers, body: c.body.raw, timeoutMs: 30_000 });
          tally.add(`${op.method} ${op.path}`, res.status);
          const what = `${op.method} ${path.slice(0, 200)} [${c.body.kind}, ${c.contentType}]`;
          expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expectProblem(res, what);
            if (before) expect(await snapshot(ws.id), `${what}: a rejected write changed stored rows`).toEqual(before);
          } else {
            expectNoLeak(res.contentType.includes("json") ? res.text : "", what);
            if (write) await settle(ws.id);
          }
          const parsed = res.text === "" ? null : res.contentType.includes("json") ? JSON.parse(res.text) : res.text;
          await assertMatchesOpenApi(baseUrl(), op.method, new URL(baseUrl() + path).pathname, res.status, res.contentType, parsed);
        }),
      );
    }, 180_000);
  }
});
