// Refused destinations are never contacted: a loopback receiver counts every
// connection while deliveries to every forbidden spelling of it are attempted.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import type { DriftEventPayload } from "@/lib/domain/notifications/payloads";
import { sendNotification, type Channel } from "./index";
import { startReceiver, type Receiver } from "./test-support";

const payload = driftFixture as DriftEventPayload;
const now = new Date("2026-11-20T10:15:00Z");
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

// Even a resolver that points everything at loopback must not lead anywhere.
const resolveToLoopback = vi.fn(async (_hostname: string) => ["127.0.0.1"]);

const FORBIDDEN = [
  "http://127.0.0.1:<port>/hook",
  "http://127.1:<port>/hook",
  "http://2130706433:<port>/hook",
  "http://0x7f.1:<port>/hook",
  "http://0x7f000001:<port>/hook",
  "http://0177.0.0.1:<port>/hook",
  "http://017700000001:<port>/hook",
  "http://[::1]:<port>/hook",
  "http://[::ffff:127.0.0.1]:<port>/hook",
  "http://[::ffff:7f00:1]:<port>/hook",
  "http://0.0.0.0:<port>/hook",
  "http://0:<port>/hook",
  "http://[::]:<port>/hook",
  "http://localhost:<port>/hook",
  "http://localhost.:<port>/hook",
  "http://hooks.localhost:<port>/hook",
  "http://hooks.example.com:<port>/hook", // resolves to 127.0.0.1
  "http://user:pass@127.0.0.1:<port>/hook",
];

describe.each<Channel>(["webhook", "slack"])("%s: forbidden destinations make zero connections", (channel) => {
  it.each(FORBIDDEN)("%s", async (template) => {
    const url = template.replace("<port>", String(receiver.port));
    const config = channel === "webhook" ? { url, secret: "whsec_test_0123456789abcdef" } : { url };
    const result = await sendNotification({ channel, config, payload, deliveryId: "dlv_ssrf", now, allowPrivate: false, resolve: resolveToLoopback });
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(result.ok ? "" : result.error).toMatch(/address refused/);
    expect(receiver.connections()).toBe(0);
  });
});

it("asked DNS only for the host name; literal addresses and loopback names never reach it", () => {
  expect(resolveToLoopback.mock.calls).toEqual([["hooks.example.com"], ["hooks.example.com"]]);
});

describe("the same receiver is reachable when an administrator allows private destinations", () => {
  it("connects once", async () => {
    const before = receiver.connections();
    const result = await sendNotification({
      channel: "webhook",
      config: { url: receiver.url(), secret: "whsec_test_0123456789abcdef" },
      payload,
      deliveryId: "dlv_allowed",
      now,
      allowPrivate: true,
    });
    expect(result).toEqual({ ok: true });
    expect(receiver.connections()).toBe(before + 1);
  });
});
