// PagerDuty Events API v2 on loopback (events_url): POST /v2/enqueue with
// trigger and resolve events that share the drift's id as dedup_key,
// answered 202 {status, message, dedup_key} as PagerDuty answers.
import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import type { DriftEventPayload, UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { sendNotification } from "../index";
import { startReceiver, type Receiver } from "../test-support";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload as Gate } from "@/lib/domain/notifications/payloads";

const detected = { ...(driftFixture as DriftEventPayload), drift_id: "5f0c6f57-2b6a-4c8e-9a55-0d6f3c1e9b21" };
const resolved: DriftEventPayload = { ...detected, id: "evt_resolved", event: "drift_resolved", state: "resolved", resolved_at: "2026-11-21T09:00:00.000Z" };
const now = new Date("2026-11-20T10:15:00Z");
const routingKey = "R0123456789abcdef0123456789ABCDE";

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function eventsApi() {
  const alerts = new Map<string, string>();
  let failNext = true;
  return {
    alerts,
    reply: (req: { body: string }, res: import("node:http").ServerResponse) => {
      if (failNext) {
        failNext = false;
        return res.writeHead(500).end();
      }
      const e = JSON.parse(req.body) as { routing_key: string; event_action: string; dedup_key: string };
      alerts.set(e.dedup_key, e.event_action === "trigger" ? "triggered" : "resolved");
      res.writeHead(202, { "content-type": "application/json" }).end(JSON.stringify({ status: "success", message: "Event processed", dedup_key: e.dedup_key }));
    },
  };
}

describe("PagerDuty Events API v2", () => {
  it("triggers on drift_detected and resolves on drift_resolved under the drift's id; a 500 is retried once", async () => {
    const api = eventsApi();
    receiver = await startReceiver(api.reply);
    const config = { routing_key: routingKey, events_url: receiver.url("/v2/enqueue") };
    const send = (payload: DriftEventPayload, id: string) => sendNotification({ channel: "pagerduty", config, payload, deliveryId: id, now, allowPrivate: true });
    expect(await send(detected, "dlv_pd_1")).toMatchObject({ ok: false, retryable: true });
    expect(await send(detected, "dlv_pd_1")).toEqual({ ok: true });
    expect(api.alerts.get(detected.drift_id)).toBe("triggered");
    expect(await send(resolved, "dlv_pd_2")).toEqual({ ok: true });
    expect(api.alerts.get(detected.drift_id)).toBe("resolved");

    const [, trigger, resolve] = receiver.received;
    expect([trigger!.method, trigger!.path, trigger!.headers["content-type"]]).toEqual(["POST", "/v2/enqueue", "application/json"]);
    expect(JSON.parse(trigger!.body)).toEqual({
      routing_key: routingKey,
      event_action: "trigger",
      dedup_key: detected.drift_id,
      payload: {
        summary: "Drift detected: web in production (newer release upstream). web in production is behind the newest release.",
        source: "web in production",
        severity: "info",
        timestamp: "2026-11-20T10:15:00.000Z",
        component: "web",
        group: "production",
        class: "upstream",
        custom_details: { workspace: "acme", team: "payments", running: "1.25.0", expected: "1.27.3", opened_at: "2026-11-20T10:00:00.000Z", event_id: "evt_01JD3W8Q5K2R9" },
      },
      client: "Driftwatch",
      client_url: "https://driftwatch.example.com/services/web",
      links: [{ href: "https://driftwatch.example.com/services/web", text: "web in Driftwatch" }],
    });
    expect(JSON.parse(resolve!.body)).toEqual({ routing_key: routingKey, event_action: "resolve", dedup_key: detected.drift_id });
  });

  it("an end-of-life drift is an error; a refused event (400) is final and the key never shows", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ status: "invalid event", message: "Event object is invalid", errors: ["Length of 'routing_key' is incorrect (should be 32 characters)"] })));
    const result = await sendNotification({ channel: "pagerduty", config: { routing_key: routingKey, events_url: receiver.url("/v2/enqueue") }, payload: { ...detected, kind: "eol" }, deliveryId: "d", now, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(JSON.stringify(result)).not.toContain(routingKey);
    expect(JSON.parse(receiver.received[0]!.body).payload.severity).toBe("error");
  });

  it("does not carry the weekly plan", async () => {
    const result = await sendNotification({ channel: "pagerduty", config: { routing_key: routingKey }, payload: planFixture as UpgradePlanPayload, deliveryId: "d", now, allowPrivate: false });
    expect(result).toEqual({ ok: false, retryable: false, error: "PagerDuty does not carry upgrade_plan notifications." });
  });
});

describe("PagerDuty: gate refused", () => {
  it("triggers a warning keyed by service, environment and version, so a retried deploy adds to one alert", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(202, { "content-type": "application/json" }).end(JSON.stringify({ status: "success" })));
    const gate = gateFixture as Gate;
    for (const id of ["evt_a", "evt_b"]) {
      const result = await sendNotification({ channel: "pagerduty", config: { routing_key: routingKey, events_url: receiver.url("/v2/enqueue") }, payload: { ...gate, id }, deliveryId: id, now, allowPrivate: true });
      expect(result.ok).toBe(true);
    }
    const [a, b] = receiver.received.map((r) => JSON.parse(r.body));
    expect(a).toMatchObject({
      routing_key: routingKey, event_action: "trigger", dedup_key: "gate_refused/acme/web/production/3.0.0",
      payload: { summary: "Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)", severity: "warning", component: "web", group: "production", class: "gate_refused", timestamp: "2026-11-20T10:15:00.000Z" },
      client_url: "https://driftwatch.example.com/services/web",
    });
    expect(b.dedup_key).toBe(a.dedup_key);
  });
});
