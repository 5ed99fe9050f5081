// The eight chat, push and incident channels through the persisted outbox,
// next to webhook, Slack and e-mail: every vendor fails the first request
// (503, a lost Matrix answer, a dropped MQTT connection), the outbox retries
// with back-off, and each event arrives once per rule. Then the API: bad
// settings are a 422 with a pointer and store nothing, secrets come back
// masked and never reach /metrics, and the test send works for every kind.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestCtx } from "@/lib/services/context";
import { deliverDue } from "@/lib/services/notifications/deliver";
import { routeEvents } from "@/lib/services/notifications/route-events";
import { createRule } from "@/lib/services/notification-rules/create";
import { testSendRule } from "@/lib/services/notification-rules/test-send";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { KINDS, startVendors, type Kind, type Vendors } from "../support/channel-vendors";
import { recordSecret } from "../support/secrets";
import { settled } from "../support/settle";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const D = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;

async function report(ws: TestWorkspace, target: string, workloads: object[]) {
  const res = await api(ws.agentKey).post("/api/v1/agent/report", { environment: "production", target: { name: target, kind: "docker" }, observed_at: new Date().toISOString(), workloads });
  expect(res.status).toBe(202);
  await settled(ws);
}
const workload = (service: string, version: string, since: string, digest: number) =>
  ({ service, container: service, main: true, image: `registry.channels.test/acme/${service}:${version}`, digest: D(digest), platform_digest: null, platform: "linux/amd64", since });

const fastForward = (workspaceId: string) =>
  testDb().$executeRaw`UPDATE deliveries d SET next_attempt_at = now() - interval '1 second' FROM notification_rules r WHERE r.id = d.rule_id AND r.workspace_id = ${workspaceId}::uuid AND d.state = 'pending'`;

describe("every channel through the outbox", () => {
  let ws: TestWorkspace;
  let vendors: Vendors;
  let ctx: RequestCtx;
  const services = ["alpha", "beta", "gamma"];
  const rules = new Map<Kind, string>();

  beforeAll(async () => {
    ws = await makeWorkspace("channels");
    // The first request of each kind fails as that vendor fails.
    vendors = await startVendors((_kind, nth) => nth === 1);
    for (const s of vendors.secrets) recordSecret("channel secret", s);
    ctx = { ...ws.ctx, config: { ...ws.ctx.config, smtpUrl: vendors.smtpUrl } };
    for (const kind of KINDS) {
      const rule = await createRule({ ctx, input: { name: kind, channel: kind, config: vendors.configs[kind], allow_private: true } });
      rules.set(kind, rule.id);
    }
  });
  afterAll(() => vendors.close());

  it("delivers each drift event once per rule, after one failure of every vendor", async () => {
    for (const [i, s] of services.entries()) {
      await report(ws, `docker@${s}-a`, [workload(s, "2.0.0", ago(2 * DAY), 100 + i)]);
      await report(ws, `docker@${s}-b`, [workload(s, "1.9.0", ago(60 * MINUTE), 200 + i)]);
    }
    const worker = () => ({ db: testDb(), config: ctx.config, now: new Date() });
    for (let round = 0; round < 4; round++) {
      await routeEvents({ ctx: { db: testDb(), now: new Date() } });
      await deliverDue({ ctx: worker(), input: { workspaceId: ws.id } });
      await fastForward(ws.id);
    }
    const deliveries = await testDb().delivery.findMany({ where: { ruleId: { in: [...rules.values()] } }, include: { rule: { select: { channel: true } } } });
    expect(deliveries).toHaveLength(3 * KINDS.length);
    expect(deliveries.filter((d) => d.state !== "sent").map((d) => [d.rule.channel, d.state, d.lastError])).toEqual([]);
    // The MQTT subscriber hears the broker a moment after the PUBACK.
    for (let i = 0; i < 50 && vendors.accepted.mqtt.size < 3; i++) await new Promise((r) => setTimeout(r, 50));
    for (const kind of KINDS) {
      const got = vendors.accepted[kind];
      expect({ kind, arrivals: [...got.values()] }).toEqual({ kind, arrivals: [1, 1, 1] });
      expect(vendors.requests[kind]).toBeGreaterThanOrEqual(4);
    }
    for (const kind of ["slack", "teams", "discord", "telegram", "ntfy", "gotify", "matrix", "mqtt"] as const) {
      expect([...vendors.accepted[kind].keys()].sort()).toEqual(services.map((s) => `detected:${s}`));
    }
    // Every first attempt failed and was retried under back-off.
    expect(deliveries.some((d) => d.attempts >= 2)).toBe(true);
  });

  it("resolves the PagerDuty alert its drift triggered", async () => {
    for (const [i, s] of services.entries()) await report(ws, `docker@${s}-b`, [workload(s, "2.0.0", ago(MINUTE), 100 + i)]);
    for (let round = 0; round < 3; round++) {
      await routeEvents({ ctx: { db: testDb(), now: new Date() } });
      await deliverDue({ ctx: { db: testDb(), config: ctx.config, now: new Date() }, input: { workspaceId: ws.id } });
      await fastForward(ws.id);
    }
    const pd = [...vendors.accepted.pagerduty.keys()];
    const triggered = pd.filter((k) => k.startsWith("detected:")).map((k) => k.split(":")[2]).sort();
    const resolved = pd.filter((k) => k.startsWith("resolved:")).map((k) => k.split(":")[1]).sort();
    expect(triggered).toHaveLength(3);
    expect(resolved).toEqual(triggered);
    const drifts = await testDb().drift.findMany({ where: { workspaceId: ws.id }, select: { id: true } });
    expect(drifts.map((d) => d.id)).toEqual(expect.arrayContaining(triggered));
    for (const kind of KINDS) expect([...vendors.accepted[kind].values()].every((n) => n === 1)).toBe(true);
  });

  it("test-sends to every kind", async () => {
    for (const kind of KINDS) {
      const out = await testSendRule({ ctx, input: { id: rules.get(kind)! } });
      expect({ kind, ...out }).toEqual({ kind, delivered: true, error: null, warning: null });
    }
    // PagerDuty's sample incident is closed again at once.
    const samples = [...vendors.accepted.pagerduty.keys()].filter((k) => k.includes("driftwatch-test") || k.startsWith("resolved:test-"));
    expect(samples).toHaveLength(2);
  });
});

describe("channel settings through the API", () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await makeWorkspace("channel-api");
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ["telegram without a chat", { channel: "telegram", config: { token: "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw" } }, "/config/chat_id"],
    ["mqtt over http", { channel: "mqtt", config: { url: "http://broker.example.com", topic: "dw" } }, "/config/url"],
    ["an unparsable Shoutrrr address", { channel: "discord", config: { url: "discord://not a token@x" } }, "/config/url"],
    ["a Shoutrrr address of another kind", { channel: "gotify", config: { url: "ntfy://ntfy.sh/topic" } }, "/config/url"],
    ["matrix with a password login", { channel: "matrix", config: { url: "matrix://bot:pw@matrix.example.org/?rooms=!a:example.org" } }, "/config/url"],
    ["a PagerDuty rule for the weekly plan", { channel: "pagerduty", config: { routing_key: "R0123456789abcdef0123456789ABCDE" }, events: ["upgrade_plan"] }, "/events"],
    ["a short routing key", { channel: "pagerduty", config: { routing_key: "short" } }, "/config/routing_key"],
    ["a private ntfy server", { channel: "ntfy", config: { url: "http://10.0.0.5/topic" } }, "/config/url"],
    ["a loopback Telegram API server", { channel: "telegram", config: { token: "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", chat_id: "1", api_url: "http://127.0.0.1:8081" } }, "/config/api_url"],
  ];
  it.each(bad)("%s: 422 with a pointer, nothing stored", async (_name, body, pointer) => {
    const before = await testDb().notificationRule.count({ where: { workspaceId: ws.id } });
    const res = await api(ws.member).post("/api/v1/notification-rules", { name: "x", ...body });
    expect(res.status).toBe(422);
    expect(res.contentType).toContain("application/problem+json");
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect(await testDb().notificationRule.count({ where: { workspaceId: ws.id } })).toBe(before);
  });

  it("stores Shoutrrr addresses as the channel's settings and never shows a secret again, nor in /metrics", async () => {
    const token = "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
    const secrets = [token, "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "syt_channelapi_secret_token", "R0123456789abcdef0123456789ABCDE", "tk_channelapi_token", "W3dE2OZz4C13_channelapi", "mqttpass-channelapi", "GotifyAppToken1"];
    for (const s of secrets) recordSecret("channel secret", s);
    const made = await Promise.all([
      api(ws.member).post("/api/v1/notification-rules", { name: "tg", channel: "telegram", config: { url: `telegram://${token}@telegram?chats=@driftwatch_ops` } }),
      api(ws.member).post("/api/v1/notification-rules", { name: "mx", channel: "matrix", config: { url: "matrix://:syt_channelapi_secret_token@matrix.example.org/?rooms=!room:example.org" } }),
      api(ws.member).post("/api/v1/notification-rules", { name: "pd", channel: "pagerduty", config: { routing_key: "R0123456789abcdef0123456789ABCDE" } }),
      api(ws.member).post("/api/v1/notification-rules", { name: "nt", channel: "ntfy", config: { url: "ntfy://:tk_channelapi_token@ntfy.sh/dw-alerts" } }),
      api(ws.member).post("/api/v1/notification-rules", { name: "dc", channel: "discord", config: { url: "discord://W3dE2OZz4C13_channelapi@693853386302554172" } }),
      api(ws.member).post("/api/v1/notification-rules", { name: "mq", channel: "mqtt", config: { url: "mqtts://ha:mqttpass-channelapi@broker.example.com:8883", topic: "dw/events", retain: true } }),
      api(ws.member).post("/api/v1/notification-rules", { name: "go", channel: "gotify", config: { url: "gotify://gotify.example.com/GotifyAppToken1" } }),
      api(ws.member).post("/api/v1/notification-rules", { name: "tm", channel: "teams", config: { url: "teams://g@t/alt/owner/extra?host=contoso.webhook.office.com" } }),
    ]);
    expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    const byName = Object.fromEntries(made.map((r) => [r.body.name, r.body.config]));
    expect(byName).toEqual({
      tg: { token: "********", chat_id: "@driftwatch_ops" },
      mx: { homeserver: "https://matrix.example.org/", room_id: "!room:example.org", access_token: "********" },
      pd: { routing_key: "********" },
      nt: { url: "https://ntfy.sh/***", token: "********" },
      dc: { url: "https://discord.com/***" },
      mq: { url: "mqtts://ha:***@broker.example.com:8883", topic: "dw/events", retain: true },
      go: { url: "https://gotify.example.com/", token: "********" },
      tm: { url: "https://contoso.webhook.office.com/***" },
    });
    const stored = await testDb().notificationRule.findMany({ where: { workspaceId: ws.id }, orderBy: { name: "asc" } });
    expect(stored.find((r) => r.name === "tg")!.config).toEqual({ token, chat_id: "@driftwatch_ops" });
    expect(stored.find((r) => r.name === "dc")!.config).toEqual({ url: "https://discord.com/api/webhooks/693853386302554172/W3dE2OZz4C13_channelapi" });

    const list = await api(ws.member).get("/api/v1/notification-rules");
    const page = await api(ws.member).get("/metrics");
    expect(page.status).toBe(200);
    const metrics = page.text;
    for (const s of secrets) {
      expect(list.text).not.toContain(s);
      expect(metrics).not.toContain(s);
    }

    // A change that leaves the token out keeps it.
    const tg = made[0]!.body.id as string;
    const patched = await api(ws.member).patch(`/api/v1/notification-rules/${tg}`, { config: { chat_id: "-100200300" } });
    expect(patched.status).toBe(200);
    expect((await testDb().notificationRule.findUniqueOrThrow({ where: { id: tg } })).config).toEqual({ token, chat_id: "-100200300" });
  });
});
