import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhookSignature } from "./signature";

const secret = "whsec_0123456789abcdef";
const body = '{"event":"drift_detected","id":"evt_1"}';
const ts = 1_795_000_000;
const now = new Date(ts * 1000);

describe("signWebhookBody", () => {
  it("is HMAC-SHA256 of '<timestamp>.<body>' in hex", () => {
    // openssl: printf '%s' '1795000000.{"event":"drift_detected","id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_0123456789abcdef
    expect(signWebhookBody(secret, ts, body)).toBe("sha256=7ca153d462d0c9de2fc0b57cb3ac6d35cad02c0173918847ce1f884583d88430");
    expect(signWebhookBody(secret, ts, body)).toBe(signWebhookBody(secret, String(ts), body));
    expect(signWebhookBody(secret, ts, body)).not.toBe(signWebhookBody(secret, ts + 1, body));
  });
});

describe("verifyWebhookSignature", () => {
  const good = signWebhookBody(secret, ts, body);

  it.each<[string, () => boolean, boolean]>([
    ["the right signature", () => verifyWebhookSignature(secret, ts, body, good, { now }), true],
    ["the timestamp as a header string", () => verifyWebhookSignature(secret, String(ts), body, good, { now }), true],
    ["a Buffer body", () => verifyWebhookSignature(secret, ts, Buffer.from(body), good, { now }), true],
    ["upper-case hex", () => verifyWebhookSignature(secret, ts, body, good.toUpperCase().replace("SHA256=", "sha256="), { now }), true],
    ["4:59 late", () => verifyWebhookSignature(secret, ts, body, good, { now: new Date((ts + 299) * 1000) }), true],
    ["a tampered body", () => verifyWebhookSignature(secret, ts, body.replace("evt_1", "evt_2"), good, { now }), false],
    ["another secret", () => verifyWebhookSignature("whsec_another_secret_0", ts, body, good, { now }), false],
    ["another timestamp", () => verifyWebhookSignature(secret, ts + 1, body, good, { now }), false],
    ["an old timestamp (replay)", () => verifyWebhookSignature(secret, ts, body, good, { now: new Date((ts + 301) * 1000) }), false],
    ["a timestamp from the future", () => verifyWebhookSignature(secret, ts, body, good, { now: new Date((ts - 301) * 1000) }), false],
    ["a custom tolerance", () => verifyWebhookSignature(secret, ts, body, good, { now: new Date((ts + 60) * 1000), toleranceSeconds: 30 }), false],
    ["no prefix", () => verifyWebhookSignature(secret, ts, body, good.slice(7), { now }), false],
    ["a truncated signature", () => verifyWebhookSignature(secret, ts, body, good.slice(0, -2), { now }), false],
    ["an empty signature", () => verifyWebhookSignature(secret, ts, body, "", { now }), false],
    ["a non-numeric timestamp", () => verifyWebhookSignature(secret, "17950e5", body, good, { now }), false],
  ])("%s → %s", (_name, run, expected) => {
    expect(run()).toBe(expected);
  });
});
