// The production server answers bearer-authenticated API requests itself
// (lib/http/direct.ts) and everything else through Next.js: both ways
// give the same answers, headers and errors.
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, makeWorkspace, type TestWorkspace } from "../support/api";
import { sessionCookie, sessionRequest } from "../support/session";
import { settled } from "../support/settle";

let ws: TestWorkspace;
let cookie: string;
const D = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
const workloads = Array.from({ length: 40 }, (_, i) => ({
  service: `svc-${i}`, container: "app", main: true, image: `nginx:1.27.${i % 5}`, digest: D(i % 9), platform_digest: null, platform: "linux/amd64", since: "2026-11-10T08:00:00Z",
}));

beforeAll(async () => {
  ws = await makeWorkspace("dispatch");
  cookie = await sessionCookie(ws.owner.email, ws.owner.password);
  const res = await api(ws.agentKey).post("/api/v1/agent/report", { environment: "staging", target: { name: "docker@a", kind: "docker" }, observed_at: "2026-11-20T10:00:00Z", workloads });
  expect(res.status).toBe(202);
  await settled(ws);
});

const raw = (path: string, init: RequestInit = {}) => fetch(baseUrl() + path, { redirect: "manual", ...init });

describe("bearer requests answered without Next.js", () => {
  it("give the same bodies as the same requests with a session (through Next.js)", async () => {
    for (const path of ["/api/v1/services", "/api/v1/matrix", "/api/v1/drifts", "/api/v1/environments", "/api/v1/history?limit=5", "/api/v1/services/svc-3", "/api/v1/services/no-such"]) {
      const bearer = await api(ws.member).get(path);
      const session = await sessionRequest(cookie, "GET", path);
      expect(bearer.status, path).toBe(session.status);
      expect(bearer.body, path).toEqual(session.body);
      expect(bearer.contentType, path).toBe(session.headers.get("content-type"));
      expect(bearer.headers.get("cache-control"), path).toBe(session.headers.get("cache-control"));
    }
  });

  it("carry the security headers and the API's policy, on answers and on problems", async () => {
    for (const [path, token, status] of [["/api/v1/services", ws.viewer, 200], ["/api/v1/services", "dw_not-a-token", 401], ["/api/v1/services/no-such", ws.viewer, 404]] as const) {
      const res = await raw(path, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(status);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
      if (status !== 200) expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    }
  });

  it("compress a large body for clients that accept gzip, with Vary, and send it as it is otherwise", async () => {
    const http = await import("node:http");
    const get = (encoding: string | null) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const req = http.get(baseUrl() + "/api/v1/matrix", { headers: { authorization: `Bearer ${ws.viewer}`, ...(encoding ? { "accept-encoding": encoding } : {}) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
      });
    const plain = await get(null);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.byteLength).toBeGreaterThan(1024);
    expect(Number(plain.headers["content-length"])).toBe(plain.body.byteLength);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    for (let i = 0; i < 2; i++) {
      const zipped = await get("br;q=1.0, gzip;q=0.8");
      expect(zipped.headers["content-encoding"]).toBe("gzip");
      expect(zipped.body.byteLength).toBeLessThan(plain.body.byteLength);
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    }
    expect((await get("gzip;q=0")).headers["content-encoding"]).toBeUndefined();
  });

  it("answer HEAD with GET's headers and no body", async () => {
    const get = await raw("/api/v1/services", { headers: { authorization: `Bearer ${ws.viewer}`, "accept-encoding": "identity" } });
    const head = await raw("/api/v1/services", { method: "HEAD", headers: { authorization: `Bearer ${ws.viewer}`, "accept-encoding": "identity" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    expect(head.headers.get("content-length")).toBe(String((await get.arrayBuffer()).byteLength));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("read bodies: a bad one gets 400/422 problem+json and a good one is stored", async () => {
    const bad = await raw("/api/v1/agent/report", { method: "POST", headers: { authorization: `Bearer ${ws.agentKey}`, "content-type": "application/json" }, body: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const invalid = await api(ws.agentKey).post("/api/v1/agent/report", { environment: "staging" });
    expect(invalid.status).toBe(422);
    const created = await api(ws.member).post("/api/v1/environments", { name: "qa-dispatch", position: 5 });
    expect(created.status).toBe(201);
    expect((await api(ws.viewer).get("/api/v1/environments")).body.items.map((e: { name: string }) => e.name)).toContain("qa-dispatch");
  });

  it("leave to Next.js what is not exactly an operation (a trailing slash is redirected, OPTIONS answered)", async () => {
    const slash = await raw("/api/v1/services/", { headers: { authorization: `Bearer ${ws.viewer}` } });
    expect([308, 200]).toContain(slash.status);
    const options = await raw("/api/v1/services", { method: "OPTIONS", headers: { authorization: `Bearer ${ws.viewer}` } });
    expect(options.status).toBeLessThan(500);
  });
});

describe("request bodies the handler leaves unread", () => {
  it("are discarded after the answer, and the connection still works", async () => {
    const big = "x".repeat(900 * 1024);
    // Refused before the body matters (bad credential), then a body that is not needed (a check), then a body over 1 MiB without a length.
    const unauthenticated = await raw("/api/v1/agent/report", { method: "POST", headers: { authorization: "Bearer dwa_wrong", "content-type": "application/json" }, body: big });
    expect(unauthenticated.status).toBe(401);
    let sent = 0;
    const chunks = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(new TextEncoder().encode("x".repeat(100 * 1024)));
        else controller.close();
      },
    });
    const tooLarge = await raw("/api/v1/agent/report", { method: "POST", headers: { authorization: `Bearer ${ws.agentKey}`, "content-type": "application/json" }, body: chunks, duplex: "half" } as RequestInit);
    expect(tooLarge.status).toBe(413);
    expect((await api(ws.viewer).get("/api/v1/services")).status).toBe(200);
  });
});
