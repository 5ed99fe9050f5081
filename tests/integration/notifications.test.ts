// Notifications end to end: drift events from agent reports go through the
// persisted outbox to a loopback webhook receiver and a real SMTP server
// (smtp-server on 127.0.0.1). The delivery functions run here, in the test
// process, against the real database; the shared test server (whose own tick
// delivers too) has no SMTP, so e-mail is left to this process. Back-off is
// fast-forwarded by moving next_attempt_at, never by faking the clock, so the
// server's worker and this one always agree on time and leases.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { sendNotification, verifyWebhookSignature, type SendNotificationInput } from "@/lib/adapters/channels";
import { createDb } from "@/lib/db/client";
import type { RequestCtx } from "@/lib/services/context";
import { deliverDue, leaseDueDeliveries, type DeliverCtx } from "@/lib/services/notifications/deliver";
import { listDeliveries } from "@/lib/services/notifications/list-deliveries";
import { routeEvents } from "@/lib/services/notifications/route-events";
import { createRule } from "@/lib/services/notification-rules/create";
import { testSendRule } from "@/lib/services/notification-rules/test-send";
import { weeklyPlanTick } from "@/lib/services/notifications/weekly-plan";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { settled } from "../support/settle";

const SECRET = "a-webhook-secret-of-some-length";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const D = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;

type Hit = { delivery: string; event: string; timestamp: string; signature: string; body: string };

/** A webhook receiver that can go down and come back on the same port. */
async function startReceiver() {
  const hits: Hit[] = [];
  let server: http.Server | null = null;
  const listen = async (port: number) => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const h = (name: string) => String(req.headers[name] ?? "");
        hits.push({ delivery: h("x-driftwatch-delivery"), event: h("x-driftwatch-event"), timestamp: h("x-driftwatch-timestamp"), signature: h("x-driftwatch-signature"), body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  };
  const port = await listen(0);
  const down = () => new Promise<void>((resolve) => {
    server!.closeAllConnections();
    server!.close(() => resolve());
  });
  return { port, hits, url: `http://127.0.0.1:${port}/hook`, down, up: () => listen(port), close: down };
}

async function report(ws: TestWorkspace, target: string, workloads: object[]) {
  const res = await api(ws.agentKey).post("/api/v1/agent/report", { environment: "production", target: { name: target, kind: "docker" }, observed_at: new Date().toISOString(), workloads });
  expect(res.status).toBe(202);
  await settled(ws);
}
const workload = (service: string, version: string, since: string, digest: number) =>
  ({ service, container: service, main: true, image: `registry.notify.test/acme/${service}:${version}`, digest: D(digest), platform_digest: null, platform: "linux/amd64", since });

/** Three services whose two targets disagree for an hour: three announced `inconsistent` drifts, three events. */
async function makeDrift(ws: TestWorkspace, services: string[]) {
  for (const [i, s] of services.entries()) {
    await report(ws, `docker@${s}-a`, [workload(s, "2.0.0", ago(2 * DAY), 100 + i)]);
    await report(ws, `docker@${s}-b`, [workload(s, "1.9.0", ago(60 * MINUTE), 200 + i)]);
  }
}
async function resolveDrift(ws: TestWorkspace, services: string[]) {
  for (const [i, s] of services.entries()) await report(ws, `docker@${s}-b`, [workload(s, "2.0.0", ago(MINUTE), 100 + i)]);
}

const eventIds = async (ws: TestWorkspace) => (await testDb().event.findMany({ where: { workspaceId: ws.id, routedAt: { not: null } }, select: { id: true } })).map((e) => e.id);
// A second back: now() has microseconds and the worker's clock (a JS Date) only milliseconds, so a retry
// made due at now() can still be a fraction of a millisecond ahead of the worker's next read of the time.
const fastForward = (ruleId: string) => testDb().$executeRaw`UPDATE deliveries SET next_attempt_at = now() - interval '1 second' WHERE rule_id = ${ruleId}::uuid AND state = 'pending'`;
const expireLeases = (ruleId: string) => testDb().$executeRaw`UPDATE deliveries SET leased_until = now() - interval '1 second' WHERE rule_id = ${ruleId}::uuid AND leased_until IS NOT NULL`;
const worker = (ws: TestWorkspace, over: Partial<DeliverCtx> = {}): DeliverCtx => ({ db: testDb(), config: ws.ctx.config, now: new Date(), ...over });

describe("webhook through the outbox", () => {
  let ws: TestWorkspace;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let ruleId: string;
  const services = ["alpha", "beta", "gamma"];

  beforeAll(async () => {
    ws = await makeWorkspace("notify-webhook");
    receiver = await startReceiver();
    // Loopback needs allow_private, an admin's choice: the workspace's own (system) context makes the rule.
    const rule = await createRule({ ctx: ws.ctx, input: { name: "hook", channel: "webhook", config: { url: receiver.url, secret: SECRET }, allow_private: true } });
    ruleId = rule.id;
  });
  afterAll(() => receiver.close());

  it("delivers every event exactly once although the receiver is down for a while", async () => {
    await receiver.down();
    await makeDrift(ws, services);
    await routeEvents({ ctx: { db: testDb(), now: new Date() } });
    const first = await deliverDue({ ctx: worker(ws), input: { workspaceId: ws.id } });
    expect(first.sent).toBe(0);
    const pending = await testDb().delivery.findMany({ where: { ruleId } });
    expect(pending).toHaveLength(3);
    expect(pending.every((d) => d.state === "pending" && d.attempts >= 1 && d.lastError !== null)).toBe(true);

    await receiver.up();
    await fastForward(ruleId);
    await deliverDue({ ctx: worker(ws), input: { workspaceId: ws.id } });
    await deliverDue({ ctx: worker(ws), input: { workspaceId: ws.id } });

    const events = await eventIds(ws);
    expect(events).toHaveLength(3);
    expect(new Set(receiver.hits.map((h) => h.delivery)).size).toBe(3);
    expect(receiver.hits).toHaveLength(3);
    const delivered = receiver.hits.map((h) => JSON.parse(h.body) as { id: string; event: string; service: string; kind: string });
    expect(delivered.map((p) => p.id).sort()).toEqual([...events].sort());
    expect(delivered.map((p) => [p.event, p.kind, p.service]).sort()).toEqual(services.map((s) => ["drift_detected", "inconsistent", s]));
    for (const h of receiver.hits) {
      expect(h.event).toBe("drift_detected");
      expect(verifyWebhookSignature(SECRET, h.timestamp, h.body, h.signature, { now: new Date() })).toBe(true);
    }
    const states = await testDb().delivery.findMany({ where: { ruleId } });
    expect(states.every((d) => d.state === "sent" && d.sentAt !== null && d.leasedUntil === null)).toBe(true);
  });

  it("loses nothing and sends nothing twice when the delivery loop is restarted in between", async () => {
    const before = receiver.hits.length;
    await resolveDrift(ws, services);
    await routeEvents({ ctx: { db: testDb(), now: new Date() } });

    // The restarted loop: a new connection pool, nothing carried over but the database.
    const restartedDb = createDb(inject("databaseUrl"), { max: 2 });
    let crashed = false;
    try {
      // A worker leases everything due and dies before sending: the leases hold off the others.
      await leaseDueDeliveries({ db: testDb(), config: ws.ctx.config }, new Date(), { workspaceId: ws.id });
      expect((await deliverDue({ ctx: worker(ws, { db: restartedDb }), input: { workspaceId: ws.id } })).leased).toBe(0);
      await expireLeases(ruleId);

      // A worker that dies right after its first send, before marking it sent.
      const crashingSend = async (input: SendNotificationInput) => {
        await sendNotification(input);
        crashed = true;
        throw new Error("simulated crash between send and mark");
      };
      await deliverDue({ ctx: worker(ws, { send: crashingSend }), input: { workspaceId: ws.id, limit: 1 } }).catch((err: Error) => expect(err.message).toMatch(/simulated crash/));

      // The restarted loop sends the rest; the crashed one waits for its lease to run out, then goes again.
      await deliverDue({ ctx: worker(ws, { db: restartedDb }), input: { workspaceId: ws.id } });
      await expireLeases(ruleId);
      await deliverDue({ ctx: worker(ws, { db: restartedDb }), input: { workspaceId: ws.id } });
    } finally {
      await restartedDb.$disconnect();
    }

    const events = await eventIds(ws);
    expect(events).toHaveLength(6);
    const after = receiver.hits.slice(before);
    const unique = new Set(after.map((h) => h.delivery));
    expect(unique.size).toBe(3);
    // At least once with an idempotency key: the crashed send is repeated under the same delivery id.
    expect(after).toHaveLength(crashed ? 4 : 3);
    expect(after.map((h) => h.event).every((e) => e === "drift_resolved")).toBe(true);
    expect(new Set(receiver.hits.map((h) => h.delivery)).size).toBe(events.length);
    expect(await testDb().delivery.count({ where: { ruleId, state: "sent" } })).toBe(6);
  });

  it("lists deliveries with attempts and failures for admins", async () => {
    const out = await listDeliveries({ ctx: ws.ctx, input: { id: ruleId } });
    expect(out.items).toHaveLength(6);
    expect(out.items.every((d) => d.state === "sent")).toBe(true);
    expect(out.items.some((d) => d.attempts >= 2)).toBe(true);
    expect(out.items.map((d) => d.summary)).toContain("alpha in production (inconsistent)");
    const asMember = await api(ws.member).get(`/api/v1/notification-rules/${ruleId}/deliveries`);
    expect(asMember.status).toBe(403);
  });

  it("test-sends one sample notification straight to the destination", async () => {
    const before = receiver.hits.length;
    const out = await testSendRule({ ctx: ws.ctx, input: { id: ruleId } });
    expect(out).toEqual({ delivered: true, error: null, warning: null });
    expect(receiver.hits).toHaveLength(before + 1);
    expect(receiver.hits.at(-1)!.delivery).toMatch(/^test-/);
    expect((await api(ws.viewer).post(`/api/v1/notification-rules/${ruleId}/test`)).status).toBe(403);
  });
});

describe("e-mail through a real SMTP server", () => {
  type Mail = { to: string[]; raw: string };
  let mails: Mail[];
  let smtp: SMTPServer;
  let port: number;
  let deferNext = 1;

  beforeAll(async () => {
    mails = [];
    smtp = new SMTPServer({
      logger: false, authOptional: true, disabledCommands: ["STARTTLS", "AUTH"],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          // The first message is deferred (4xx): the outbox must retry it, not drop it.
          if (deferNext > 0) {
            deferNext--;
            return callback(Object.assign(new Error("4.3.0 Try again later"), { responseCode: 451 }));
          }
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it("sends one mail per event, retrying a deferred one", async () => {
    const ws = await makeWorkspace("notify-email");
    const ctx: RequestCtx = { ...ws.ctx, config: { ...ws.ctx.config, smtpUrl: `smtp://127.0.0.1:${port}` } };
    const rule = await createRule({ ctx, input: { name: "ops mail", channel: "email", config: { to: ["ops@example.test"] }, kinds: ["inconsistent"] } });
    await makeDrift(ws, ["mail-a", "mail-b"]);
    await routeEvents({ ctx: { db: testDb(), now: new Date() } });
    const deps = { db: testDb(), config: ctx.config, get now() { return new Date(); } };
    await deliverDue({ ctx: deps, input: { workspaceId: ws.id } });
    await fastForward(rule.id);
    await deliverDue({ ctx: deps, input: { workspaceId: ws.id } });

    const deliveries = await testDb().delivery.findMany({ where: { ruleId: rule.id } });
    expect(deliveries).toHaveLength(2);
    expect(deliveries.every((d) => d.state === "sent")).toBe(true);
    expect(mails).toHaveLength(2);
    expect(mails.every((m) => m.to.join() === "ops@example.test")).toBe(true);
    const ids = mails.map((m) => /X-Driftwatch-Delivery: (\S+)/i.exec(m.raw)?.[1]);
    expect(ids.sort()).toEqual(deliveries.map((d) => d.id).sort());
    expect(mails.some((m) => m.raw.includes("mail-a"))).toBe(true);
  });
});

describe("notification rules API", () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await makeWorkspace("notify-rules");
  });

  it("creates a rule for members and never shows its secrets", async () => {
    const res = await api(ws.member).post("/api/v1/notification-rules", {
      name: "ops hook", channel: "webhook", config: { url: "https://hooks.example.com/services/T000/B000/XYZ", secret: SECRET, headers: { Authorization: "Bearer abc" } },
      events: ["drift_detected"], kinds: ["upstream", "eol"], teams: ["core"],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "ops hook", channel: "webhook", events: ["drift_detected"], kinds: ["upstream", "eol"], services: [], environments: [], teams: ["core"], allow_private: false, enabled: true,
      config: { url: "https://hooks.example.com/***", secret: "********", headers: { Authorization: "********" } },
    });
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain("XYZ");
    const list = await api(ws.member).get("/api/v1/notification-rules");
    expect(list.body.items).toHaveLength(1);
    expect(list.text).not.toContain(SECRET);

    // A change that leaves the secret out keeps it.
    const patched = await api(ws.member).patch(`/api/v1/notification-rules/${res.body.id}`, { name: "renamed", enabled: false, config: { url: "https://hooks.example.com/other" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "renamed", enabled: false });
    const stored = await testDb().notificationRule.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.config).toMatchObject({ url: "https://hooks.example.com/other", secret: SECRET });

    expect((await api(ws.viewer).get("/api/v1/notification-rules")).status).toBe(403);
    expect((await api(ws.member).delete(`/api/v1/notification-rules/${res.body.id}`)).status).toBe(204);
    expect((await api(ws.member).get(`/api/v1/notification-rules/${res.body.id}`)).status).toBe(404);
  });

  it("refuses private destinations unless an admin allows them", async () => {
    const loopback = await api(ws.member).post("/api/v1/notification-rules", { name: "local", channel: "webhook", config: { url: "http://127.0.0.1:9/hook", secret: SECRET } });
    expect(loopback.status).toBe(422);
    expect(loopback.body.errors.map((e: { pointer: string }) => e.pointer)).toContain("/config/url");
    const allowed = await api(ws.member).post("/api/v1/notification-rules", { name: "local", channel: "webhook", config: { url: "http://127.0.0.1:9/hook", secret: SECRET }, allow_private: true });
    expect(allowed.status).toBe(403);
    const metadata = await createRule({ ctx: ws.ctx, input: { name: "m", channel: "slack", config: { url: "http://169.254.169.254/latest" }, allow_private: true } }).catch((e: unknown) => e);
    expect(metadata).toMatchObject({ code: "invalid_input" });
  });

  it("validates settings per channel", async () => {
    const short = await api(ws.member).post("/api/v1/notification-rules", { name: "x", channel: "webhook", config: { url: "https://hooks.example.com/x", secret: "short" } });
    expect(short.status).toBe(422);
    expect(short.body.errors.map((e: { pointer: string }) => e.pointer)).toContain("/config/secret");
    const badEvent = await api(ws.member).post("/api/v1/notification-rules", { name: "x", channel: "slack", config: { url: "https://hooks.slack.com/services/x" }, events: ["drift_exploded"] });
    expect(badEvent.status).toBe(422);
    // The shared test server has no DRIFTWATCH_SMTP_URL.
    const mail = await api(ws.member).post("/api/v1/notification-rules", { name: "x", channel: "email", config: { to: ["ops@example.test"] } });
    expect(mail.status).toBe(422);
  });
});

describe("weekly upgrade plan", () => {
  it("emits one upgrade_plan per ISO week from Monday 08:00 UTC, to rules that name it", async () => {
    const ws = await makeWorkspace("notify-plan");
    for (const [name, position] of [["staging", 10], ["production", 20]] as const) await api(ws.member).post("/api/v1/environments", { name, position });
    await api(ws.agentKey).post("/api/v1/agent/report", { environment: "staging", target: { name: "docker@s", kind: "docker" }, observed_at: new Date().toISOString(), workloads: [workload("web", "1.5.0", ago(10 * DAY), 1)] });
    await report(ws, "docker@p", [workload("web", "1.4.0", ago(30 * DAY), 2)]);
    const receiver = await startReceiver();
    try {
      const rule = await createRule({ ctx: ws.ctx, input: { name: "plan", channel: "webhook", config: { url: receiver.url, secret: SECRET }, events: ["upgrade_plan"], allow_private: true } });
      const config = { ...ws.ctx.config, eolEnabled: false };
      const sunday = new Date("2026-01-11T20:00:00Z");
      const mondayEarly = new Date("2026-01-05T07:59:00Z");
      const monday = new Date("2026-01-05T09:00:00Z");
      expect((await weeklyPlanTick({ ctx: { db: testDb(), config, now: mondayEarly } })).week).toBe("2026-W02");
      const key = "upgrade_plan:2026-W02";
      const count = () => testDb().event.count({ where: { workspaceId: ws.id, dedupeKey: key } });
      expect(await count()).toBe(0);
      await weeklyPlanTick({ ctx: { db: testDb(), config, now: monday } });
      await weeklyPlanTick({ ctx: { db: testDb(), config, now: sunday } });
      expect(await count()).toBe(1);

      const event = await testDb().event.findFirstOrThrow({ where: { workspaceId: ws.id, dedupeKey: key } });
      expect(event.payload).toMatchObject({ event: "upgrade_plan", items: [expect.objectContaining({ service: "web", environment: "production", reason: "behind_previous_env", running: "1.4.0", target_version: "1.5.0" })] });
      await routeEvents({ ctx: { db: testDb(), now: new Date() } });
      await deliverDue({ ctx: { db: testDb(), config, now: new Date() }, input: { workspaceId: ws.id } });
      // The drift events themselves are not for a rule that names only upgrade_plan (the server's tick may add this week's plan).
      const toRule = await testDb().delivery.findMany({ where: { ruleId: rule.id }, include: { event: { select: { type: true } } } });
      expect(toRule.map((d) => d.eventId)).toContain(event.id);
      expect(toRule.every((d) => d.event.type === "upgrade_plan")).toBe(true);
      expect(receiver.hits.filter((h) => (JSON.parse(h.body) as { id: string }).id === event.id)).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
