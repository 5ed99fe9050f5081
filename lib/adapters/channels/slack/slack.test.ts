import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import type { DriftEventPayload, UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { renderSlackMessage } from "@/lib/domain/notifications/render-slack";
import { sendNotification } from "../index";
import { startReceiver, type Receiver } from "../test-support";

const drift = driftFixture as DriftEventPayload;
const plan = planFixture as UpgradePlanPayload;
const now = new Date("2026-11-20T10:15:00Z");
// Incoming-webhook URLs carry their secret in the path.
const hookPath = "/services/T0000000/B0000000/XXXXXXXXXXXXXXXXXXXXXXXX";

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("Slack incoming webhook", () => {
  it.each([
    ["drift", drift],
    ["upgrade plan", plan],
  ] as const)("POSTs { text, blocks } for a %s", async (_name, payload) => {
    receiver = await startReceiver((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
    const result = await sendNotification({ channel: "slack", config: { url: receiver.url(hookPath) }, payload, deliveryId: "dlv_1", now, allowPrivate: true });
    expect(result).toEqual({ ok: true });
    const request = receiver.received[0];
    expect(request?.path).toBe(hookPath);
    expect(request?.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = JSON.parse(request?.body ?? "{}") as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["blocks", "text"]);
    expect(body).toEqual(renderSlackMessage(payload));
    expect(Array.isArray(body.blocks) && body.blocks.every((b: { type?: string }) => b.type === "section" || b.type === "context")).toBe(true);
  });

  it.each([
    [404, "no_service", false],
    [403, "action_prohibited", false],
    [410, "channel_is_archived", false],
    [400, "invalid_payload", false],
    [500, "rollup_error", true],
  ])("%i %s: retryable %s, and the error names the host only", async (status, text, retryable) => {
    receiver = await startReceiver((_req, res) => res.writeHead(status).end(text));
    const result = await sendNotification({ channel: "slack", config: { url: receiver.url(hookPath) }, payload: drift, deliveryId: "dlv_1", now, allowPrivate: true });
    expect(result).toEqual({ ok: false, retryable, error: `Slack at 127.0.0.1:${receiver.port} answered ${status}.` });
  });

  it("429 honours Retry-After", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(429, { "Retry-After": "30" }).end());
    const result = await sendNotification({ channel: "slack", config: { url: receiver.url(hookPath) }, payload: drift, deliveryId: "dlv_1", now, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, retryable: true, retryAfterSeconds: 30 });
  });
});
