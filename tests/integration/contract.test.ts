// The HTTP conventions every route follows: auth, roles, isolation, input
// errors, limits — each response also checked against the OpenAPI document.
import { describe, expect, it, beforeAll } from "vitest";
import { api, makeWorkspace, request, type TestWorkspace } from "../support/api";

let a: TestWorkspace;
let b: TestWorkspace;

beforeAll(async () => {
  [a, b] = await Promise.all([makeWorkspace("contract-a"), makeWorkspace("contract-b")]);
});

const expectProblem = (res: { status: number; contentType: string | null; body: any }, status: number) => {
  expect(res.status).toBe(status);
  expect(res.contentType).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
};

describe("authentication and roles", () => {
  it.each([
    ["GET", "/api/v1/environments"],
    ["POST", "/api/v1/environments"],
    ["GET", "/api/v1/services"],
    ["GET", "/api/v1/services/web"],
    ["PATCH", "/api/v1/services/web"],
  ])("%s %s without a token is 401 problem+json", async (method, path) => {
    expectProblem(await request(method, path, { body: method === "GET" ? undefined : {} }), 401);
  });

  it("rejects a malformed or unknown bearer token with 401", async () => {
    expectProblem(await api("dw_not-a-real-token").get("/api/v1/environments"), 401);
    expectProblem(await request("GET", "/api/v1/environments", { headers: { authorization: "Basic Zm9vOmJhcg==" } }), 401);
  });

  it("gives a viewer read access and refuses its writes with 403", async () => {
    expect((await api(a.viewer).get("/api/v1/environments")).status).toBe(200);
    expectProblem(await api(a.viewer).post("/api/v1/environments", { name: "dev", position: 1 }), 403);
    expectProblem(await api(a.viewer).post("/api/v1/services", { name: "web" }), 403);
  });

  it("refuses API routes to agent keys, and agent routes to API tokens", async () => {
    expectProblem(await api(a.agentKey).get("/api/v1/environments"), 403);
  });

  it("lets a member create environments, ordered by position", async () => {
    const m = api(a.member);
    expect((await m.post("/api/v1/environments", { name: "production", position: 30, production: true })).status).toBe(201);
    expect((await m.post("/api/v1/environments", { name: "dev", position: 10 })).status).toBe(201);
    expect((await m.post("/api/v1/environments", { name: "staging", position: 20 })).status).toBe(201);
    const list = await m.get("/api/v1/environments");
    expect(list.body.items.map((e: { name: string }) => e.name)).toEqual(["dev", "staging", "production"]);
    expect(list.body.items[2]).toMatchObject({ name: "production", position: 30, production: true });
    expectProblem(await m.post("/api/v1/environments", { name: "dev", position: 5 }), 409);
  });
});

describe("workspace isolation", () => {
  it("answers 404 for another workspace's service, and never lists it", async () => {
    expect((await api(a.member).post("/api/v1/services", { name: "secret-svc", team: "alpha" })).status).toBe(201);
    expectProblem(await api(b.member).get("/api/v1/services/secret-svc"), 404);
    expectProblem(await api(b.member).patch("/api/v1/services/secret-svc", { team: "x" }), 404);
    const list = await api(b.viewer).get("/api/v1/services");
    expect(list.body.items.map((s: { name: string }) => s.name)).not.toContain("secret-svc");
    expect((await api(a.viewer).get("/api/v1/services/secret-svc")).body.team).toBe("alpha");
  });
});

describe("bad input", () => {
  it("answers 422 with a pointer for each invalid field", async () => {
    const res = await api(a.member).post("/api/v1/environments", { name: "", position: "first", extra: 1 });
    expectProblem(res, 422);
    const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["/name", "/position"]));
  });

  it("answers 422 with /policy pointers for an invalid policy, and stores nothing", async () => {
    await api(a.member).post("/api/v1/services", { name: "policy-422" });
    const res = await api(a.member).patch("/api/v1/services/policy-422", { policy: { track: "weekly", pin_major: -1 } });
    expectProblem(res, 422);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(expect.arrayContaining(["/policy/track", "/policy/pin_major"]));
    expect((await api(a.viewer).get("/api/v1/services/policy-422")).body.policy_source).toBe("default");
  });

  it("answers 415 for a body that is not JSON", async () => {
    expectProblem(await request("POST", "/api/v1/environments", { token: a.member, raw: "name=dev", contentType: "application/x-www-form-urlencoded" }), 415);
    expectProblem(await request("POST", "/api/v1/environments", { token: a.member, raw: "{}", contentType: "text/plain" }), 415);
  });

  it("answers 400 for malformed JSON and invalid UTF-8", async () => {
    expectProblem(await request("POST", "/api/v1/environments", { token: a.member, raw: '{"name": "dev",', contentType: "application/json" }), 400);
    expectProblem(await request("POST", "/api/v1/environments", { token: a.member, raw: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), contentType: "application/json" }), 400);
  });

  it("answers 413 for a body over 1 MiB", async () => {
    const big = JSON.stringify({ name: "x".repeat(1_100_000), position: 1 });
    expectProblem(await request("POST", "/api/v1/environments", { token: a.member, raw: big, contentType: "application/json" }), 413);
  });

  it("answers problem+json for unknown routes and wrong methods", async () => {
    expectProblem(await api(a.viewer).get("/api/v1/no-such-thing"), 404);
    expectProblem(await api(a.viewer).get("/api/v1/services/a/b/c"), 404);
    expectProblem(await request("PUT", "/api/v1/environments", { token: a.member, body: {} }), 405);
  });

  it("treats a path parameter that is not a name as not found", async () => {
    expectProblem(await api(a.viewer).get(`/api/v1/services/${encodeURIComponent("../../etc/passwd")}`), 404);
  });
});

describe("services", () => {
  it("merges policy fields on PATCH and removes a field set to null", async () => {
    const m = api(a.member);
    await m.post("/api/v1/services", { name: "merge-me" });
    let res = await m.patch("/api/v1/services/merge-me", { policy: { track: "minor", pin_major: 1 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ policy_source: "service", policy: { track: "minor", pin_major: 1 } });
    res = await m.patch("/api/v1/services/merge-me", { policy: { prerelease: true, pin_major: null } });
    expect(res.body.policy).toMatchObject({ track: "minor", prerelease: true });
    expect(res.body.policy).not.toHaveProperty("pin_major");
    res = await m.patch("/api/v1/services/merge-me", { policy: null, team: "payments" });
    expect(res.body).toMatchObject({ policy_source: "default", team: "payments" });
  });

  it("describes a declared service's repository as coming from the service", async () => {
    const res = await api(a.member).post("/api/v1/services", { name: "declared-repo", repository: "ghcr.io/acme/api" });
    expect(res.body).toMatchObject({ repository: "ghcr.io/acme/api", repository_source: "policy" });
  });
});

describe("OpenAPI", () => {
  it("serves an OpenAPI 3.1 document describing every route", async () => {
    const res = await request("GET", "/api/v1/openapi.yaml");
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^openapi: 3\.1\.0/m);
    for (const path of ["/api/v1/environments", "/api/v1/services/{name}", "/api/v1/openapi.yaml"]) expect(res.text).toContain(`${path}:`);
  });
});
