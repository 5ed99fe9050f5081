import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import type { DriftEventPayload, GateRefusedPayload } from "@/lib/domain/notifications/payloads";
import { sendNotification } from "../index";
import { closedPort, startReceiver, type Receiver } from "../test-support";
import { verifyWebhookSignature } from "./signature";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";

const payload = driftFixture as DriftEventPayload;
const secret = "whsec_test_0123456789abcdef";
const now = new Date("2026-11-20T10:15:00Z");
const nowSeconds = Math.floor(now.getTime() / 1000);

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const send = (url: string, extra: Record<string, unknown> = {}) =>
  sendNotification({
    channel: "webhook",
    config: { url, secret, ...extra },
    payload,
    deliveryId: "dlv_01JD3W9Z",
    now,
    allowPrivate: true,
  });

describe("webhook delivery to a loopback receiver", () => {
  it("POSTs the signed JSON payload with the Driftwatch headers", async () => {
    receiver = await startReceiver();
    const result = await send(receiver.url("/hooks/driftwatch?team=payments"));
    expect(result).toEqual({ ok: true });

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/hooks/driftwatch?team=payments");
    expect(request?.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Driftwatch",
      "x-driftwatch-event": "drift_detected",
      "x-driftwatch-delivery": "dlv_01JD3W9Z",
      "x-driftwatch-timestamp": String(nowSeconds),
    });
    expect(JSON.parse(request?.body ?? "")).toEqual(payload);

    const signature = String(request?.headers["x-driftwatch-signature"]);
    const timestamp = String(request?.headers["x-driftwatch-timestamp"]);
    const body = request?.body ?? "";
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(secret, timestamp, body, signature, { now })).toBe(true);
    // The receiver's checks: a changed body, a replay ten minutes later, another secret.
    expect(verifyWebhookSignature(secret, timestamp, body.replace("1.25.0", "1.27.3"), signature, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, timestamp, body, signature, { now: new Date(now.getTime() + 600_000) })).toBe(false);
    expect(verifyWebhookSignature("whsec_other_0123456789", timestamp, body, signature, { now })).toBe(false);
  });

  it("sends the rule's extra headers", async () => {
    receiver = await startReceiver();
    const result = await send(receiver.url(), { headers: { Authorization: "Bearer receiver-token-123" } });
    expect(result).toEqual({ ok: true });
    expect(receiver.received[0]?.headers.authorization).toBe("Bearer receiver-token-123");
  });

  it.each([200, 201, 202, 204])("%i is sent", async (status) => {
    receiver = await startReceiver((_req, res) => res.writeHead(status).end());
    expect(await send(receiver.url())).toEqual({ ok: true });
  });

  it("500 is retryable", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(500).end("internal error"));
    expect(await send(receiver.url())).toEqual({ ok: false, retryable: true, error: `Webhook at 127.0.0.1:${receiver.port} answered 500.` });
  });

  it.each([502, 503, 504, 408])("%i is retryable", async (status) => {
    receiver = await startReceiver((_req, res) => res.writeHead(status).end());
    expect(await send(receiver.url())).toMatchObject({ ok: false, retryable: true });
  });

  it("400 is a permanent failure", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(400).end("bad payload"));
    expect(await send(receiver.url())).toEqual({ ok: false, retryable: false, error: `Webhook at 127.0.0.1:${receiver.port} answered 400.` });
  });

  it.each([401, 403, 404, 410, 413, 422])("%i is a permanent failure", async (status) => {
    receiver = await startReceiver((_req, res) => res.writeHead(status).end());
    expect(await send(receiver.url())).toMatchObject({ ok: false, retryable: false });
  });

  it("429 with Retry-After in seconds is retryable after that delay", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(429, { "Retry-After": "120" }).end());
    expect(await send(receiver.url())).toEqual({
      ok: false,
      retryable: true,
      retryAfterSeconds: 120,
      error: `Webhook at 127.0.0.1:${receiver.port} answered 429.`,
    });
  });

  it("503 with Retry-After as an HTTP date is retryable after that delay", async () => {
    const at = new Date(now.getTime() + 90_000).toUTCString();
    receiver = await startReceiver((_req, res) => res.writeHead(503, { "Retry-After": at }).end());
    expect(await send(receiver.url())).toMatchObject({ ok: false, retryable: true, retryAfterSeconds: 90 });
  });

  it("a redirect is not followed and is a permanent failure", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(307, { Location: "http://169.254.169.254/latest/meta-data/" }).end());
    const result = await send(receiver.url());
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(result.ok ? "" : result.error).toContain("redirects are not followed");
    expect(receiver.received).toHaveLength(1);
  });

  it("a receiver that is down (connection refused) is retryable", async () => {
    const port = await closedPort();
    expect(await send(`http://127.0.0.1:${port}/hook`)).toEqual({
      ok: false,
      retryable: true,
      error: `Webhook delivery failed: 127.0.0.1:${port} refused the connection.`,
    });
  });

  it("a receiver that does not answer in time is retryable", async () => {
    receiver = await startReceiver(() => {
      // never answers
    });
    const started = Date.now();
    const result = await sendNotification({
      channel: "webhook",
      config: { url: receiver.url(), secret },
      payload,
      deliveryId: "dlv_timeout",
      now,
      allowPrivate: true,
      timeoutMs: 300,
    });
    expect(result).toEqual({ ok: false, retryable: true, error: `Webhook delivery failed: 127.0.0.1:${receiver.port} did not answer within 300 ms.` });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(receiver.received).toHaveLength(1);
  });

  it("never puts the secret, URL path, query or header values into an error", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(500).end(`echo ${secret}`));
    const url = receiver.url("/T0001/B0002/s3cr3tPathPart?token=q-secret-value");
    const results = [
      await send(url, { headers: { Authorization: "Bearer hdr-secret-value" } }),
      await send(url.replace(String(receiver.port), String(await closedPort())), { headers: { Authorization: "Bearer hdr-secret-value" } }),
    ];
    for (const result of results) {
      expect(result.ok).toBe(false);
      const text = JSON.stringify(result);
      for (const secretPart of [secret, "s3cr3tPathPart", "q-secret-value", "hdr-secret-value"]) expect(text).not.toContain(secretPart);
    }
  });
});

describe("webhook: gate refused", () => {
  it("POSTs the payload itself, signed", async () => {
    receiver = await startReceiver();
    const result = await sendNotification({ channel: "webhook", config: { url: receiver.url(), secret: "a-webhook-secret-of-some-length" }, payload: gateFixture as GateRefusedPayload, deliveryId: "dlv_gate", now: new Date(), allowPrivate: true });
    expect(result.ok).toBe(true);
    expect(JSON.parse(receiver.received[0]!.body)).toEqual(gateFixture);
    expect(receiver.received[0]!.headers["x-driftwatch-event"]).toBe("gate_refused");
  });
});
