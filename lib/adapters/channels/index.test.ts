import { describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import type { DriftEventPayload } from "@/lib/domain/notifications/payloads";
import { emailConfigSchema, sendNotification, webhookConfigSchema, type Channel } from "./index";

const payload = driftFixture as DriftEventPayload;
const now = new Date("2026-11-20T10:15:00Z");

describe("sendNotification: settings are checked before anything is sent", () => {
  it.each<[Channel, unknown, string]>([
    ["webhook", { url: "https://hooks.example.com/x", secret: "short-secret-1" }, "Invalid webhook settings: secret:"],
    ["webhook", { url: "ftp://hooks.example.com/x", secret: "0123456789abcdef" }, "Invalid webhook settings: url: must be an http(s) URL"],
    ["webhook", { url: "https://hooks.example.com/x", secret: "0123456789abcdef", headers: { "X-Driftwatch-Signature": "forged" } }, "Invalid webhook settings: headers.X-Driftwatch-Signature"],
    ["webhook", { url: "https://hooks.example.com/x", secret: "0123456789abcdef", headers: { "X-Ok": "a\r\nX-Injected: 1" } }, "must not contain line breaks"],
    ["webhook", null, "Invalid webhook settings: (config)"],
    ["slack", {}, "Invalid Slack settings: url:"],
    ["email", { to: [] }, "Invalid e-mail settings: to:"],
    ["email", { to: ["not-an-address"] }, "Invalid e-mail settings: to.0:"],
    ["email", { to: ["a@example.com\r\nBcc: victim@example.com"] }, "Invalid e-mail settings: to.0:"],
    ["email", { to: Array.from({ length: 21 }, (_, i) => `u${i}@example.com`) }, "Invalid e-mail settings: to:"],
  ])("%s %j", async (channel, config, message) => {
    const result = await sendNotification({ channel, config, payload, deliveryId: "dlv_1", now, allowPrivate: false, smtpUrl: "smtp://127.0.0.1:1" });
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(result.ok ? "" : result.error).toContain(message);
  });

  it("never echoes a setting's value in the error", async () => {
    const result = await sendNotification({ channel: "webhook", config: { url: "https://hooks.example.com/x", secret: "tooShortSecret" }, payload, deliveryId: "dlv_1", now, allowPrivate: false });
    expect(JSON.stringify(result)).not.toContain("tooShortSecret");
  });

  it.each(["", "dlv\r\nX-Injected: 1", "a".repeat(201), "dlv 1"])("refuses the delivery id %j", async (deliveryId) => {
    const result = await sendNotification({ channel: "slack", config: { url: "https://hooks.example.com/x" }, payload, deliveryId, now, allowPrivate: false });
    expect(result).toMatchObject({ ok: false, retryable: false });
  });

  it("a destination whose name does not resolve is retryable", async () => {
    const result = await sendNotification({
      channel: "slack",
      config: { url: "https://hooks.example.com/services/T/B/secret" },
      payload,
      deliveryId: "dlv_1",
      now,
      allowPrivate: false,
      resolve: async () => [],
    });
    expect(result).toEqual({ ok: false, retryable: true, error: "Slack address refused: The host hooks.example.com could not be resolved." });
  });
});

describe("config schemas", () => {
  it("accept the documented shapes", () => {
    expect(webhookConfigSchema.parse({ url: "https://example.com/hook", secret: "0123456789abcdef" })).toEqual({ url: "https://example.com/hook", secret: "0123456789abcdef" });
    expect(emailConfigSchema.parse({ to: Array.from({ length: 20 }, (_, i) => `u${i}@example.com`) }).to).toHaveLength(20);
  });
});
