// "Try the demo" in a running server: the demo workspace is filled through the
// use cases (no registry, no network: recorded upstream tags), shows every
// drift kind it can without end-of-life data, and a second call adds nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { DEMO_EMAIL, DEMO_SERVICES, DEMO_WORKSPACE } from "@/lib/domain/demo/plan";
import { createApiToken } from "@/lib/services/api-tokens/create";
import { createDemoWorkspace } from "@/lib/services/demo/create-demo-workspace";
import { signInWithPassword } from "@/lib/services/sessions/sign-in";
import { hasAnyUser } from "@/lib/services/workspaces/has-any-user";
import { api, testDb } from "../support/api";
import { recordSecret } from "../support/secrets";

let token: string;
let first: Awaited<ReturnType<typeof createDemoWorkspace>>;
const ctx = () => ({ db: testDb(), config: loadConfig({}), now: new Date() });

beforeAll(async () => {
  first = await createDemoWorkspace({ ctx: ctx() });
  const [ws] = await testDb().$queryRaw<{ id: string }[]>`SELECT id::text FROM workspaces WHERE name = ${DEMO_WORKSPACE}`;
  token = (await createApiToken({ ctx: { ...ctx(), actor: { kind: "system", workspaceId: ws!.id } }, input: { name: "demo-test", role: "viewer" } })).value;
  recordSecret("API token", token);
}, 120_000);

const snapshot = async () => {
  const [services, history, acks, drifts] = await Promise.all([
    api(token).get("/api/v1/services"), api(token).get("/api/v1/history?since=2000-01-01T00:00:00Z"), api(token).get("/api/v1/acks"), api(token).get("/api/v1/drifts"),
  ]);
  return { services: services.body.items.length, history: history.body.items.length, acks: acks.body.items.length, drifts: drifts.body.items.length };
};

describe("createDemoWorkspace", () => {
  it("creates the demo workspace with an owner of its own who can sign in", async () => {
    expect(first).toEqual({ workspace: DEMO_WORKSPACE, email: DEMO_EMAIL, userId: expect.any(String), password: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/), created: true });
    const signIn = await signInWithPassword({ db: testDb(), now: new Date() }, { email: first.email, password: first.password!, ip: "192.0.2.10" });
    expect(signIn.kind).toBe("ok");
  });

  it("fills it through the public paths: environments, services with teams, a Compose file's declarations, upstream tags, drift and acknowledgements", async () => {
    const envs = await api(token).get("/api/v1/environments");
    expect(envs.body.items.map((e: { name: string }) => e.name)).toEqual(["dev", "staging", "production"]);
    const matrix = await api(token).get("/api/v1/matrix?limit=100");
    expect(matrix.body.services).toHaveLength(DEMO_SERVICES.length);
    expect(matrix.body.services.find((s: { name: string }) => s.name === "checkout-api")).toMatchObject({ team: "payments", upstream: { state: "ok", newest: "2.6.0" } });
    const targets = await api(token).get("/api/v1/targets");
    expect(targets.body.items.map((t: { name: string }) => t.name).sort()).toEqual(["compose@staging", "docker@dev-1", "k8s@prod-eu", "k8s@prod-us", "k8s@staging"]);
    const drifts = await api(token).get("/api/v1/drifts");
    const kinds = new Set(drifts.body.items.map((d: { kind: string }) => d.kind));
    for (const kind of ["upstream", "env", "declared"]) expect(kinds).toContain(kind);
    const acks = await api(token).get("/api/v1/acks");
    expect(acks.body.items.map((a: { service: string }) => a.service).sort()).toEqual(["cache", "notifications"]);
  });

  it("a second call says the demo exists and adds nothing", async () => {
    const before = await snapshot();
    expect(before.history).toBeGreaterThan(100);
    const again = await createDemoWorkspace({ ctx: ctx() });
    expect(again.created).toBe(false);
    expect(await snapshot()).toEqual(before);
    // The password someone was given stays: the caller signs in as the same owner with a one-time ticket.
    expect(again).toEqual({ workspace: DEMO_WORKSPACE, email: DEMO_EMAIL, userId: first.userId, password: null, created: false });
    const signIn = await signInWithPassword({ db: testDb(), now: new Date() }, { email: DEMO_EMAIL, password: first.password!, ip: "192.0.2.11" });
    expect(signIn.kind).toBe("ok");
  });

  it("leaves first-run setup open while the demo's owner is the only user", async () => {
    expect(await hasAnyUser(testDb())).toBe(true);
    const others = await testDb().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM users WHERE email <> ${DEMO_EMAIL}`;
    expect(await hasAnyUser(testDb(), { besidesDemo: true })).toBe(others[0]!.n > 0);
  });
});
