// Hand-made attacks: deeply nested and huge JSON,
// slow bodies, wrong media types, invalid UTF-8, regular expressions built to
// make backtracking engines take forever, path traversal in names and file
// paths, and CR/LF header injection. Every answer is a 4xx problem (or, where
// the input is harmless, a documented success), never a 500 or a hang, and a
// rejected write leaves every row of the workspace as it was.
import { spawnSync } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "@/lib/api/operation";
import { ops } from "@/lib/api/operations";
import { compileTagFilter } from "@/lib/domain/versions/filter";
import { createEnvironment } from "@/lib/services/environments/create";
import { createService } from "@/lib/services/services/create";
import { baseUrl, makeWorkspace, type TestWorkspace } from "../support/api";
import { exactPathRequest, expectNoLeak, expectProblem, rawRequest, signInCookie, snapshot, Tally, type RawResponse } from "../support/fuzz";

const ROOT = path.resolve(import.meta.dirname, "../..");
const tally = new Tally();
const OPERATIONS = Object.values(ops) as Operation[];
const BODY_OPS = OPERATIONS.filter((op) => op.body);

let ws: TestWorkspace;
let cookie: string;

beforeAll(async () => {
  ws = await makeWorkspace("bad-input");
  cookie = await signInCookie(ws.owner.email, ws.owner.password);
  await createEnvironment({ ctx: ws.ctx, input: { name: "prod", position: 1, production: true } });
  await createService({ ctx: ws.ctx, input: { name: "web" } });
}, 120_000);

afterAll(() => tally.print(`bad-input: ${tally.total()} hand-made hostile requests`));

/** The operation's path with its parameters filled by existing objects, and credentials that reach it. */
function target(op: Operation): { path: string; headers: Record<string, string> } {
  const p = op.path.replace("{name}", op.path.includes("environments") ? "prod" : "web").replace("{id}", "00000000-0000-4000-8000-000000000000");
  if (op.auth === "agent") return { path: p, headers: { authorization: `Bearer ${ws.agentKey}` } };
  if (op.auth === "admin") return { path: p, headers: { cookie, origin: baseUrl() } };
  return { path: p, headers: { authorization: `Bearer ${ws.member}` } };
}

/** Sends a hostile request, checks the answer is a clean 4xx problem and that nothing stored changed. */
async function rejected(category: string, method: string, p: string, opts: Parameters<typeof rawRequest>[2] & { exactPath?: boolean }, expectStatus?: number | number[]): Promise<RawResponse> {
  const before = await snapshot(ws.id);
  const res = opts?.exactPath
    ? await exactPathRequest(method, p, { headers: opts.headers, body: opts.body as string | undefined, timeoutMs: 60_000 })
    : await rawRequest(method, p, { timeoutMs: 60_000, ...opts });
  tally.add(category, res.status);
  const what = `${category}: ${method} ${p.slice(0, 120)}`;
  expectProblem(res, what);
  if (expectStatus !== undefined) expect([expectStatus].flat(), `${what}: ${res.text.slice(0, 200)}`).toContain(res.status);
  expect(await snapshot(ws.id), `${what}: stored rows changed`).toEqual(before);
  return res;
}

describe("deeply nested JSON", () => {
  const deepArray = "[".repeat(100_000) + "]".repeat(100_000);
  const deepObject = '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000);

  it("is refused on every route that takes a body (100,000 levels of arrays and of objects)", async () => {
    for (const op of BODY_OPS) {
      const t = target(op);
      for (const body of [deepArray, deepObject]) {
        const res = await rejected("nested JSON, 100k levels", op.method, t.path, { headers: { ...t.headers, "content-type": "application/json" }, body }, [400, 404]);
        if (res.status === 400) expect(JSON.parse(res.text).detail).toMatch(/nested/);
      }
    }
  });

  it("is refused inside an otherwise valid body (a policy, a notification rule's settings)", async () => {
    // Written as text: serialising 5,000 levels would overflow this process's own stack.
    const nested = "{\"x\":".repeat(5_000) + "1" + "}".repeat(5_000);
    const member = { authorization: `Bearer ${ws.member}`, "content-type": "application/json" };
    await rejected("nested JSON inside a field", "PATCH", "/api/v1/services/web", { headers: member, body: `{"policy":{"track":"minor","extra":${nested}}}` }, 400);
    await rejected("nested JSON inside a field", "POST", "/api/v1/notification-rules", {
      headers: member,
      body: `{"name":"deep","channel":"webhook","config":{"url":"https://hooks.example.test/x","secret":"0123456789abcdef","deep":${nested}}}`,
    }, 400);
  });
});

describe("huge and slow bodies", () => {
  it("answers 413 for a body over 1 MiB, declared or streamed without a length", async () => {
    const big = JSON.stringify({ name: "x".repeat(1_100_000) });
    for (const op of BODY_OPS) {
      const t = target(op);
      await rejected("body over 1 MiB (Content-Length)", op.method, t.path, { headers: { ...t.headers, "content-type": "application/json" }, body: big }, 413);
      const res = await streamed(op.method, t.path, { ...t.headers, "content-type": "application/json" }, { chunk: 64 * 1024, count: 20, delayMs: 0 });
      tally.add("body over 1 MiB (chunked, no length)", res.status);
      expect(res.status, `${op.method} ${op.path}`).toBe(413);
      expect(res.contentType).toMatch(/^application\/problem\+json/);
    }
  });

  it("answers a slowly dripped body when it ends, and a declared oversize body before it is sent", async () => {
    const t = target(ops.createEnvironment);
    const headers = { ...t.headers, "content-type": "application/json" };
    const before = await snapshot(ws.id);
    // 3 s of 200-byte pieces of a body that is not JSON.
    const slow = await streamed("POST", t.path, headers, { chunk: 200, count: 30, delayMs: 100 });
    tally.add("slow-drip body (3 s)", slow.status);
    expect(slow.status).toBe(400);
    // 1.25 MiB dripped in 64 KiB pieces, without a length: 413 once it has arrived.
    const dripped = await streamed("POST", t.path, headers, { chunk: 64 * 1024, count: 20, delayMs: 20 });
    tally.add("slow-drip body past 1 MiB (chunked)", dripped.status);
    expect(dripped.status).toBe(413);
    // 12.5 MiB declared and dripped: refused before the body is read, without waiting for the rest.
    const declared = await streamed("POST", t.path, headers, { chunk: 64 * 1024, count: 200, delayMs: 50, contentLength: 200 * 64 * 1024 });
    tally.add("slow-drip body, 12.5 MiB declared", declared.status);
    expect(declared.status).toBe(413);
    expect(declared.contentType).toMatch(/^application\/problem\+json/);
    expect(declared.sentChunks).toBeLessThan(200);
    expect(await snapshot(ws.id)).toEqual(before);
  });
});

/** A request whose body is written in pieces over time, with no Content-Length (chunked), through node:http so an early answer is seen. */
function streamed(method: string, p: string, headers: Record<string, string>, drip: { chunk: number; count: number; delayMs: number; contentLength?: number }) {
  return new Promise<{ status: number; contentType: string; text: string; sentChunks: number }>((resolve, reject) => {
    const url = new URL(baseUrl() + p);
    let sent = 0;
    let answered = false;
    const framing = drip.contentLength === undefined ? { "transfer-encoding": "chunked" } : { "content-length": String(drip.contentLength) };
    // A connection of its own, closed once answered: a body abandoned halfway leaves the server reading
    // it, so a request sent after it on the same kept-alive connection would be read as that body.
    const req = http.request(url, { method, agent: false, headers: { ...headers, ...framing } }, (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text, sentChunks: sent });
        req.destroy();
      });
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`no answer within 60 s: ${method} ${p}, ${sent} of ${drip.count} pieces sent`)));
    req.on("error", (err) => (answered ? undefined : reject(err)));
    const piece = Buffer.alloc(drip.chunk, "a");
    const next = () => {
      if (answered || req.destroyed) return;
      if (sent >= drip.count) return void req.end();
      sent++;
      req.write(piece, (err) => (err ? undefined : setTimeout(next, drip.delayMs)));
    };
    next();
  });
}

describe("wrong media types and bytes", () => {
  it("answers 415 for bodies that are not declared as JSON", async () => {
    const types = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=xyz", "application/xml", "application/octet-stream", "text/json"];
    for (const op of BODY_OPS) {
      const t = target(op);
      for (const type of types) await rejected("wrong Content-Type", op.method, t.path, { headers: { ...t.headers, "content-type": type }, body: '{"name":"x"}' }, 415);
      await rejected("JSON body without Content-Type", op.method, t.path, { headers: t.headers, body: Buffer.from('{"name":"x"}') }, 415);
    }
  });

  it("answers 400 for invalid UTF-8, a BOM, and bytes that are not JSON", async () => {
    const bodies: [string, Uint8Array][] = [
      ["invalid UTF-8 (0xFF 0xFE)", Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ["overlong UTF-8 (0xC0 0xAF)", Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d])],
      ["UTF-8-encoded surrogate (0xED 0xA0 0x80)", Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])],
      ["truncated UTF-8 sequence", Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d])],
      ["UTF-16 body", Buffer.from('{"name":"x"}', "utf16le")],
      ["NUL bytes", Buffer.from([0x00, 0x00, 0x00])],
    ];
    for (const op of BODY_OPS) {
      const t = target(op);
      for (const [label, bytes] of bodies) await rejected(label, op.method, t.path, { headers: { ...t.headers, "content-type": "application/json" }, body: bytes }, 400);
      // A byte-order mark is skipped (RFC 8259 allows it); what follows is judged as usual.
      await rejected("byte-order mark before JSON", op.method, t.path, { headers: { ...t.headers, "content-type": "application/json" }, body: Buffer.from("\ufeff[]", "utf8") }, [404, 422]);
    }
  });

  it("answers 422 for NUL characters in any JSON string or query value (PostgreSQL cannot store them)", async () => {
    const member = { authorization: `Bearer ${ws.member}`, "content-type": "application/json" };
    const now = new Date().toISOString();
    const cases: [string, string, unknown][] = [
      ["POST", "/api/v1/services", { name: "api", team: "a\u0000b" }],
      ["PATCH", "/api/v1/services/web", { application: "\u0000" }],
      ["PATCH", "/api/v1/services/web", { policy: { "tag\u0000filter": "x" } }],
      ["POST", "/api/v1/notification-rules", { name: "n\u0000", channel: "email", config: { to: ["a@example.test"] } }],
      ["POST", "/api/v1/acks", { service: "web", kind: "release", until_version: "1.0\u0000" }],
    ];
    for (const [method, p, body] of cases) {
      const res = await rejected("NUL in a JSON string", method, p, { headers: member, body: JSON.stringify(body) }, 422);
      expect(JSON.parse(res.text).errors?.[0]?.pointer).toBeTruthy();
    }
    const report = {
      environment: "prod", observed_at: now, target: { name: "docker@host\u0000", kind: "docker" },
      workloads: [{ service: "web", container: "c\u0000", main: true, image: "nginx:1.27", digest: null, platform_digest: null, platform: null, since: now }],
    };
    await rejected("NUL in a JSON string", "POST", "/api/v1/agent/report", { headers: { authorization: `Bearer ${ws.agentKey}`, "content-type": "application/json" }, body: JSON.stringify(report) }, 422);
    for (const q of ["/api/v1/drifts?service=a%00b", "/api/v1/history?environment=%00", "/api/v1/services?team=x%00", "/api/v1/acks?service=%00"]) {
      const res = await rawRequest("GET", q, { headers: { authorization: `Bearer ${ws.member}` } });
      tally.add("NUL in a query value", res.status);
      expectProblem(res, q);
      expect(res.status).toBe(422);
    }
  });
});

describe("unpaired surrogates", () => {
  it("answers 422 for a JSON \\uD800 escape with no partner, in a value or a name, and stores nothing", async () => {
    const member = { authorization: `Bearer ${ws.member}`, "content-type": "application/json" };
    // JSON.stringify writes a lone surrogate as the escape `\ud800`, which JSON.parse reads back as one.
    for (const [p, body] of [["/api/v1/services", { name: "lone-\ud800" }], ["/api/v1/services", { name: "x", team: "\udc00t" }]] as const) {
      const res = await rejected("unpaired surrogate", "POST", p, { headers: member, body: JSON.stringify(body) }, 422);
      expect(JSON.parse(res.text).errors?.[0]?.pointer).toMatch(/^\/(name|team)$/);
    }
    const now = new Date().toISOString();
    const report = {
      environment: "prod", observed_at: now, target: { name: "docker@surrogate", kind: "docker" },
      workloads: [{ service: "web-\ud83d", container: "web", main: true, image: "nginx:1.27", digest: null, platform_digest: null, platform: null, since: now }],
    };
    const res = await rejected("unpaired surrogate", "POST", "/api/v1/agent/report", { headers: { authorization: `Bearer ${ws.agentKey}`, "content-type": "application/json" }, body: JSON.stringify(report) }, 422);
    expect(JSON.parse(res.text).errors?.[0]?.pointer).toBe("/workloads/0/service");
    // A pair is one character, and welcome.
    const ok = await rawRequest("POST", "/api/v1/services", { headers: member, body: JSON.stringify({ name: "paired", team: "t-\ud83d\ude00" }) });
    expect(ok.status, ok.text).toBe(201);
    expect(JSON.parse(ok.text).team).toBe("t-😀");
  });
});

describe("tag_filter regular expressions built to backtrack", () => {
  // Each takes exponential time in a backtracking engine on a long run of "a" followed by a mismatch.
  const CATASTROPHIC = ["^(a+)+$", "^(a|a)*$", "(a|aa)+b", "^(a*)*b$", "(.*a){12}", "^(([a-z])+.)+[A-Z]([a-z])+$", "(x+x+)+y", "^(\\w+\\s?)*$"];
  // What RE2 cannot run in linear time, or cannot parse: refused with 422.
  const REFUSED = ["(a)\\1", "(?=a)", "(?!a)b", "(?<=a)b", "a{1001}", "((a{1000}){1000}){1000}", "(", "[z-a]", "a**", "x".repeat(501)];

  it("accepts the catastrophic patterns (RE2 runs them in linear time) and refuses what RE2 cannot run", async () => {
    const member = { authorization: `Bearer ${ws.member}`, "content-type": "application/json" };
    for (const pattern of CATASTROPHIC) {
      const res = await rawRequest("PATCH", "/api/v1/services/web", { headers: member, body: JSON.stringify({ policy: { tag_filter: pattern } }), timeoutMs: 60_000 });
      tally.add("catastrophic tag_filter (accepted, RE2)", res.status);
      expect(res.status, res.text).toBe(200);
      expect(JSON.parse(res.text).policy.tag_filter).toBe(pattern);
    }
    for (const pattern of REFUSED) {
      for (const [method, p, body] of [
        ["PATCH", "/api/v1/services/web", { policy: { tag_filter: pattern } }],
        ["POST", "/api/v1/services", { name: "regex-svc", policy: { tag_filter: pattern } }],
      ] as const) {
        const res = await rejected("unsupported tag_filter (refused)", method, p, { headers: member, body: JSON.stringify(body) }, 422);
        expect(res.text).toMatch(/tag_filter/);
      }
    }
  });

  it("matches pathological tags in linear time, in the domain and through `driftwatch tags newest`", () => {
    const tags = ["1.0.0", "1.2.0", ...Array.from({ length: 50 }, (_, i) => "a".repeat(20_000 + i) + "!")];
    for (const pattern of CATASTROPHIC) {
      const filter = compileTagFilter(pattern);
      expect(filter.ok).toBe(true);
      // A backtracking engine would not return from these within the lifetime of the test run.
      if (filter.ok) for (const tag of tags.slice(2, 6)) filter.test(tag);
    }
    const r = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "tags", "newest", "--running", "1.0.0", "--tag-filter", "^(a+)+$"], {
      input: JSON.stringify(tags), encoding: "utf8", timeout: 60_000,
    });
    tally.add("catastrophic tag_filter via CLI (50 tags of 20k chars)", r.status ?? -1);
    expect(r.error, "the CLI did not finish within 60 s").toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ running: "1.0.0", newest: null });
  });
});

describe("path traversal in names and file paths", () => {
  // Sent byte for byte: fetch would resolve "..", "." and "%2e%2e" before the server sees them.
  const SEGMENTS = ["..", ".", "%2e%2e", ".%2e", "%2E.", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "..%2f..%2fetc%2fpasswd", "..%5c..%5cwindows", "%252e%252e%252f", "a%00b", "%00", "..%00", "%c0%ae%c0%ae%2f", "web%2f..%2f..%2f", "web%00.svg", "%ff%fe"];

  it("answers 404 or 400 for traversal in service, environment and id path parameters", async () => {
    const member = { authorization: `Bearer ${ws.member}` };
    for (const seg of SEGMENTS) {
      for (const [method, p] of [
        ["GET", `/api/v1/services/${seg}`], ["PATCH", `/api/v1/services/${seg}`], ["POST", `/api/v1/services/${seg}/check`], ["GET", `/api/v1/services/${seg}/badge`],
        ["PATCH", `/api/v1/environments/${seg}`], ["DELETE", `/api/v1/acks/${seg}`], ["GET", `/api/v1/notification-rules/${seg}`],
      ] as const) {
        const headers = method === "PATCH" ? { ...member, "content-type": "application/json" } : member;
        await rejected("traversal in a path parameter", method, p, { headers, body: method === "PATCH" ? '{"team":"x"}' : undefined, exactPath: true }, [400, 404]);
      }
    }
  });

  it("refuses traversal in names inside bodies and in Compose file paths", async () => {
    const member = { authorization: `Bearer ${ws.member}`, "content-type": "application/json" };
    const names = ["../x", "..\\x", "..", "./web", "/etc/passwd", "web/../admin", "%2e%2e%2f", "a\u0000b", "-rf", "web\r\nX-Injected: 1"];
    for (const name of names) {
      await rejected("traversal in a name", "POST", "/api/v1/services", { headers: member, body: JSON.stringify({ name }) }, 422);
      await rejected("traversal in a name", "POST", "/api/v1/environments", { headers: member, body: JSON.stringify({ name, position: 9 }) }, 422);
      await rejected("traversal in a name", "GET", `/api/v1/services/web/badge?env=${encodeURIComponent(name)}`, { headers: member }, [404, 422]);
      const now = new Date().toISOString();
      const report = { environment: name, observed_at: now, target: { name: "docker@h", kind: "docker" }, workloads: [{ service: name, container: "c", main: true, image: "nginx:1.27", digest: null, platform_digest: null, platform: null, since: now }] };
      await rejected("traversal in a name", "POST", "/api/v1/agent/report", { headers: { authorization: `Bearer ${ws.agentKey}`, "content-type": "application/json" }, body: JSON.stringify(report) }, 422);
    }
    const paths = ["../../etc/passwd", "/etc/passwd", "a/../../b", "..", "./../x", "compose.yaml\u0000.txt", "..\\..\\x", "x/..", "\n"];
    for (const p of paths) {
      const body = { environment: "prod", kind: "compose_git", repository_url: "https://git.example.test/r.git", branch: "main", paths: [p] };
      await rejected("traversal in a Compose file path", "POST", "/api/v1/targets", { headers: member, body: JSON.stringify(body) }, 422);
    }
    for (const branch of ["../../x", "main\u0000", "main\nx", "a b", "main;rm -rf /"]) {
      const body = { environment: "prod", kind: "compose_git", repository_url: "https://git.example.test/r.git", branch, paths: ["compose.yaml"] };
      await rejected("hostile Compose branch", "POST", "/api/v1/targets", { headers: member, body: JSON.stringify(body) }, 422);
    }
  });

  it("answers the public badge route with a plain 404 for traversal, never a file or a 500", async () => {
    for (const p of ["/badge/..%2f..%2fetc/passwd.svg", "/badge/k/..%2f..%2fetc%2fpasswd.svg", "/badge/%00/web.svg", "/badge/k/web.svg?env=..%2f..&sig=x", "/badge/k/web%00.svg?sig=x", "/badge/k/web.svg?env=%0d%0aX-Injected:%201&sig=x"]) {
      const res = await rawRequest("GET", p);
      tally.add("traversal in the badge route", res.status);
      expect(res.status, p).toBe(404);
      expect(res.headers.get("x-injected")).toBeNull();
      expectNoLeak(res.text, p);
    }
  });
});

describe("header injection", () => {
  const webhook = (config: Record<string, unknown>, name = "hook") => ({ name, channel: "webhook", config: { url: "https://hooks.example.test/x", secret: "0123456789abcdef", ...config } });

  it("refuses CR/LF in webhook header names and values and in destination URLs", async () => {
    const member = { authorization: `Bearer ${ws.member}`, "content-type": "application/json" };
    const hostile = [
      { headers: { "X-A\r\nX-Injected": "1" } },
      { headers: { "X-A": "v\r\nX-Injected: 1" } },
      { headers: { "X-A": "v\nX-Injected: 1" } },
      { headers: { "X-A": "v\rX-Injected: 1" } },
      { headers: { "X-A": "v\u0000" } },
      { headers: { "X A": "v" } },
      { headers: { "": "v" } },
      { headers: { "Content-Length": "0" } },
      { headers: { Host: "evil.example" } },
      { headers: { "Transfer-Encoding": "chunked" } },
      { url: "https://hooks.example.test/x\r\nX-Injected: 1" },
      { url: "https://hooks.example.test\r\n/x" },
      { url: "https://hooks.example.test/x\u0000" },
      { url: "javascript:alert(1)" },
      { url: "file:///etc/passwd" },
      { url: "gopher://127.0.0.1:25/_HELO" },
    ];
    for (const config of hostile) {
      await rejected("header injection in a webhook rule", "POST", "/api/v1/notification-rules", { headers: member, body: JSON.stringify(webhook(config)) }, 422);
    }
    // A rule that exists; changes to it are refused just the same, and it stays as it was.
    const created = await rawRequest("POST", "/api/v1/notification-rules", { headers: member, body: JSON.stringify(webhook({ headers: { "X-Token": "abc" } })) });
    expect(created.status, created.text).toBe(201);
    const id = JSON.parse(created.text).id as string;
    for (const config of hostile) {
      await rejected("header injection in a webhook rule", "PATCH", `/api/v1/notification-rules/${id}`, { headers: member, body: JSON.stringify({ config }) }, 422);
    }
    for (const to of ["a@example.test\r\nBcc: victim@example.test", "a@example.test\nSubject: x", "<a@example.test>\r\n"]) {
      await rejected("header injection in an e-mail rule", "POST", "/api/v1/notification-rules", { headers: member, body: JSON.stringify({ name: "mail", channel: "email", config: { to: [to] } }) }, 422);
    }
  });

  it("never echoes CR/LF from the request into a response header", async () => {
    const probes: [string, Record<string, string>][] = [
      ["/report/pdf?month=2026-01%0d%0aX-Injected:%201", { cookie }],
      ["/report/pdf?month=%0aContent-Disposition:%20inline", { cookie }],
      ["/api/v1/services/web/badge?env=prod%0d%0aX-Injected:%201", { authorization: `Bearer ${ws.member}` }],
      ["/api/v1/nowhere%0d%0aX-Injected:%201", {}],
      ["/api/auth/signin?callbackUrl=%0d%0aX-Injected:%201", {}],
      ["/api/auth/signin?callbackUrl=https://evil.example/%0d%0aX-Injected:%201", {}],
    ];
    for (const [p, headers] of probes) {
      const res = await rawRequest("GET", p, { headers, timeoutMs: 60_000 });
      tally.add("CR/LF echoed into a response header", res.status);
      expect(res.status, `${p}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expect(res.headers.get("x-injected"), p).toBeNull();
      for (const [k, v] of res.headers) expect(`${k}: ${v}`, p).not.toMatch(/[\r\n]|X-Injected/i);
      expectNoLeak(res.text, p);
    }
  });
});

describe("routes outside the operations table", () => {
  it("answers malformed MCP requests without a 500 or internals", async () => {
    const auth = { authorization: `Bearer ${ws.viewer}`, accept: "application/json, text/event-stream" };
    const bodies: [string, string | Uint8Array][] = [
      ["application/json", "{"], ["application/json", "[]"], ["application/json", "null"], ["application/json", '{"jsonrpc":"2.0"}'],
      ["application/json", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":[]}}'],
      ["application/json", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service","arguments":{"name":"../../etc\\u0000"}}}'],
      ["application/json", "[".repeat(100_000) + "]".repeat(100_000)], ["application/json", Buffer.from([0x7b, 0xff, 0x7d])],
      ["text/plain", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'], ["application/json", JSON.stringify({ x: "y".repeat(1_100_000) })],
    ];
    for (const [type, body] of bodies) {
      const res = await rawRequest("POST", "/api/mcp", { headers: { ...auth, "content-type": type }, body, timeoutMs: 60_000 });
      tally.add("malformed MCP request", res.status);
      expect(res.status, `${type} ${String(body).slice(0, 80)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expectNoLeak(res.text, "mcp");
    }
  });

  it("answers malformed sign-in requests without a 500 or internals", async () => {
    const forms = ["", "email=%00&password=%00", `email=${"a".repeat(5000)}@x&password=x`, "csrfToken=x&email[]=a&password[]=b", "%ff%fe=1"];
    for (const form of forms) {
      const res = await rawRequest("POST", "/api/auth/callback/credentials", { headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl(), "x-forwarded-for": "10.99.0.1" }, body: form });
      tally.add("malformed sign-in form", res.status);
      expect(res.status, `${form.slice(0, 60)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expectNoLeak(res.text, "sign-in");
    }
  });
});

describe("hostile headers", () => {
  it("answers an empty or invalid X-Forwarded-Host on a browser session with 400, not a 500", async () => {
    for (const host of ["", " ", "a b", "[::1", "%00"]) {
      await rejected("invalid X-Forwarded-Host with a session", "POST", "/api/v1/tokens", { headers: { cookie, origin: baseUrl(), "x-forwarded-host": host, "content-type": "application/json" }, body: '{"name":"t","role":"viewer"}' }, [400, 403]);
      await rejected("invalid X-Forwarded-Host with a session", "GET", "/api/v1/tokens", { headers: { cookie, "x-forwarded-host": host } }, [400, 403]);
    }
  });

  it("answers request lines and headers over 16 KiB with a 431 problem", async () => {
    const res = await rawRequest("GET", `/api/v1/services?team=${"x".repeat(20_000)}`, { headers: { authorization: `Bearer ${ws.member}` } });
    tally.add("request line over 16 KiB", res.status);
    expect(res.status).toBe(431);
    expect(res.contentType).toMatch(/^application\/problem\+json/);
    const hdr = await rawRequest("GET", "/api/v1/services", { headers: { authorization: `Bearer ${ws.member}`, "x-junk": "y".repeat(20_000) } });
    tally.add("headers over 16 KiB", hdr.status);
    expect(hdr.status).toBe(431);
  });
});
