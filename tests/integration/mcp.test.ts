// The Model Context Protocol server at /api/mcp, through the SDK's own client
// over HTTP: Bearer API tokens, the tool list, and tools whose structured
// output is the same as the REST API's bodies.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { settled } from "../support/settle";

const DAY = 86_400_000;
const NOW = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000;
const ago = (days: number) => new Date(NOW - days * DAY);
const IMAGE = "registry.example.test/mcp/web";
const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } } };

let ws: TestWorkspace;
let client: Client;
let releaseLock: () => Promise<void>;

function workload(tag: string, since: Date) {
  const image = `${IMAGE}:${tag}`;
  return { service: "web", container: "web", main: true, image, digest: `sha256:${createHash("sha256").update(image).digest("hex")}`, platform_digest: null, platform: "linux/amd64", since: since.toISOString() };
}

async function connect(headers: Record<string, string>): Promise<Client> {
  const c = new Client({ name: "driftwatch-test", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { requestInit: { headers } }));
  return c;
}

beforeAll(async () => {
  ws = await makeWorkspace("mcp");
  await api(ws.member).post("/api/v1/environments", { name: "dev", position: 1 });
  await api(ws.member).post("/api/v1/environments", { name: "production", position: 2, production: true });
  const tags = { repository: IMAGE, tags: ["0.9.0", "1.0.0", "1.1.0"], digests: [], resolved: [], error: null };
  const report = (environment: string, target: string, w: object[], registry_results: object[] = []) =>
    api(ws.agentKey).post("/api/v1/agent/report", { environment, target: { name: target, kind: "docker" }, observed_at: ago(0).toISOString(), workloads: w, registry_results });
  expect((await report("dev", "mcp-dev", [workload("1.0.0", ago(5))], [tags])).status).toBe(202);
  expect((await report("production", "mcp-prod", [workload("0.9.0", ago(20))])).status).toBe(202);
  await api(ws.member).patch("/api/v1/services/web", { team: "shop" });
  await settled(ws);

  // Seeded drift records, held from the scheduler's drift evaluation (its advisory lock) while they are read.
  const lock = new pg.Client({ connectionString: inject("databaseUrl") });
  await lock.connect();
  await lock.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [`drift:${ws.id}`]);
  releaseLock = async () => {
    await lock.query("SELECT pg_advisory_unlock_all()");
    await lock.end();
  };
  const db = testDb();
  const service = await db.service.findFirstOrThrow({ where: { workspaceId: ws.id, name: "web" } });
  const envs = new Map((await db.environment.findMany({ where: { workspaceId: ws.id } })).map((e) => [e.name, e.id] as const));
  await db.drift.deleteMany({ where: { workspaceId: ws.id } });
  await db.drift.createMany({
    data: [
      { workspaceId: ws.id, serviceId: service.id, environmentId: envs.get("production")!, kind: "upstream", state: "open", running: "0.9.0", expected: "1.1.0", openedAt: ago(4) },
      { workspaceId: ws.id, serviceId: service.id, environmentId: envs.get("production")!, kind: "env", state: "announced", running: "0.9.0", expected: "1.0.0", openedAt: ago(5), announcedAt: ago(5) },
      { workspaceId: ws.id, serviceId: service.id, environmentId: envs.get("dev")!, kind: "upstream", state: "open", running: "1.0.0", expected: "1.1.0", openedAt: ago(2) },
    ],
  });
  client = await connect({ authorization: `Bearer ${ws.viewer}` });
});

afterAll(async () => {
  await client?.close();
  await releaseLock?.();
});

describe("POST /api/mcp", () => {
  it("lists the tools, each with an input and an output schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["drifts", "matrix", "promotions", "service", "updates"]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
    const updates = tools.find((t) => t.name === "updates");
    expect(Object.keys(updates?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["team", "environment"]));
  });

  it("answers `updates` with the same content as GET /api/v1/updates", async () => {
    const result = await client.callTool({ name: "updates", arguments: {} });
    const body = (await api(ws.viewer).get("/api/v1/updates")).body;
    expect(body.items).toHaveLength(2);
    // Releases held back by min_release_age are part of each line (none here).
    expect(body.items.map((l: { waiting: unknown }) => l.waiting)).toEqual([[], []]);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(body);
    expect(JSON.parse((result.content as { type: string; text: string }[])[0]!.text)).toEqual(body);
  });

  it.each<Record<string, string>>([{ environment: "production" }, { team: "shop", environment: "dev" }, { team: "nobody" }])("filters `updates` like the API: %j", async (args) => {
    const result = await client.callTool({ name: "updates", arguments: args });
    const body = (await api(ws.viewer).get(`/api/v1/updates?${new URLSearchParams(args)}`)).body;
    expect(result.structuredContent).toEqual(body);
  });

  it("answers `matrix`, `drifts`, `service` and `promotions` as the API does", async () => {
    const matrix = await client.callTool({ name: "matrix", arguments: {} });
    expect(matrix.structuredContent).toEqual((await api(ws.viewer).get("/api/v1/matrix")).body);
    const drifts = await client.callTool({ name: "drifts", arguments: { environment: "production" } });
    expect(drifts.structuredContent).toEqual((await api(ws.viewer).get("/api/v1/drifts?environment=production")).body);
    const service = await client.callTool({ name: "service", arguments: { name: "web" } });
    expect(service.structuredContent).toEqual((await api(ws.viewer).get("/api/v1/services/web")).body);
    const promotions = await client.callTool({ name: "promotions", arguments: {} });
    expect(promotions.structuredContent).toMatchObject({ items: [{ service: "web", from_environment: "dev", to_environment: "production", from_version: "0.9.0", to_version: "1.0.0" }] });
  });

  it("reports a missing service as a tool error", async () => {
    const result = await client.callTool({ name: "service", arguments: { name: "nope" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/nope was not found/);
  });

  it("refuses text with NUL in any tool's input with a clear error, before the database sees it", async () => {
    for (const [name, args] of [["service", { name: "web\u0000" }], ["drifts", { service: "a\u0000b" }], ["matrix", { q: "\u0000" }], ["updates", { team: "x\u0000" }]] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(JSON.stringify(result.content), name).toMatch(/must not contain NUL/);
    }
  });

  it("answers 401 problem+json without a valid token, and the SDK client cannot connect", async () => {
    for (const headers of [{}, { authorization: "Bearer dw_not-a-real-token" }] as Record<string, string>[]) {
      const res = await fetch(`${baseUrl()}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(INITIALIZE),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ status: 401, code: "unauthenticated" });
    }
    await expect(connect({})).rejects.toThrow();
  });

  it("refuses agent keys with 403", async () => {
    const res = await fetch(`${baseUrl()}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${ws.agentKey}` },
      body: JSON.stringify(INITIALIZE),
    });
    expect(res.status).toBe(403);
  });

  it("takes POST only: GET answers 405 problem+json", async () => {
    const res = await api(ws.viewer).get("/api/mcp");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
