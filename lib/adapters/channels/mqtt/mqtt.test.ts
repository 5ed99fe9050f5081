// MQTT against the real Mosquitto broker on 127.0.0.1:1883 (MQTT_TEST_URL to
// point elsewhere). A loopback TCP relay in front of it drops the first
// connection, so the retry is the one that arrives.
import { randomUUID } from "node:crypto";
import net from "node:net";
import type { AddressInfo } from "node:net";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import type { DriftEventPayload, UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { parseChannelSettings, sendNotification } from "../index";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload } from "@/lib/domain/notifications/payloads";
import { renderMqttMessage } from "./render";

const BROKER = process.env.MQTT_TEST_URL ?? "mqtt://127.0.0.1:1883";
const drift = driftFixture as DriftEventPayload;
const now = new Date("2026-11-20T10:15:00Z");

type Received = { topic: string; payload: string; retain: boolean; qos: number };

async function subscribe(topic: string): Promise<{ messages: Received[]; end: () => Promise<void> }> {
  const client = await mqtt.connectAsync(BROKER, { clientId: `dw-test-${randomUUID().slice(0, 8)}`, reconnectPeriod: 0 });
  const messages: Received[] = [];
  client.on("message", (t, payload, packet) => messages.push({ topic: t, payload: payload.toString("utf8"), retain: packet.retain, qos: packet.qos }));
  await client.subscribeAsync(topic, { qos: 1 });
  return { messages, end: () => client.endAsync() };
}

/** Relays TCP to the broker, resetting the first `drop` connections. */
async function relay(drop: number) {
  const broker = new URL(BROKER);
  let seen = 0;
  const server = net.createServer((socket) => {
    if (seen++ < drop) return socket.resetAndDestroy();
    const upstream = net.connect(Number(broker.port || 1883), broker.hostname);
    socket.pipe(upstream).pipe(socket);
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const until = async (check: () => boolean, ms = 3000) => {
  for (const start = Date.now(); !check() && Date.now() - start < ms; ) await new Promise((r) => setTimeout(r, 20));
};

describe("MQTT on the real broker", () => {
  let sub: Awaited<ReturnType<typeof subscribe>>;
  const topic = `driftwatch-test/${randomUUID()}`;
  beforeAll(async () => {
    sub = await subscribe(`${topic}/#`);
  });
  afterAll(() => sub.end());

  it("publishes the event as JSON with its delivery id (QoS 1); a dropped connection is retried and arrives once", async () => {
    const r = await relay(1);
    try {
      const config = { url: r.url, topic: `${topic}/events` };
      const send = () => sendNotification({ channel: "mqtt", config, payload: drift, deliveryId: "dlv_mqtt_1", now, allowPrivate: true });
      const first = await send();
      expect(first).toMatchObject({ ok: false, retryable: true });
      expect(await send()).toEqual({ ok: true });
      await until(() => sub.messages.length >= 1);
      await new Promise((res) => setTimeout(res, 200));
      expect(sub.messages).toHaveLength(1);
      expect(sub.messages[0]).toMatchObject({ topic: `${topic}/events`, retain: false, qos: 1 });
      expect(JSON.parse(sub.messages[0]!.payload)).toEqual({ ...drift, delivery_id: "dlv_mqtt_1" });
      expect(r.connections()).toBe(2);
    } finally {
      await r.close();
    }
  });

  it("retains the plan when asked, for subscribers that come later", async () => {
    const retained = `${topic}/plan`;
    expect(await sendNotification({ channel: "mqtt", config: { url: BROKER, topic: retained, retain: true }, payload: planFixture as UpgradePlanPayload, deliveryId: "dlv_mqtt_plan", now, allowPrivate: true })).toEqual({ ok: true });
    const late = await subscribe(retained);
    try {
      await until(() => late.messages.length >= 1);
      expect(late.messages[0]).toMatchObject({ topic: retained, retain: true });
      expect(JSON.parse(late.messages[0]!.payload)).toMatchObject({ event: "upgrade_plan", delivery_id: "dlv_mqtt_plan" });
    } finally {
      await late.end();
      // Clear the retained message.
      const c = await mqtt.connectAsync(BROKER, { reconnectPeriod: 0 });
      await c.publishAsync(retained, "", { retain: true, qos: 1 });
      await c.endAsync();
    }
  });

  it("refuses a loopback broker unless private destinations are allowed, without connecting", async () => {
    const r = await relay(0);
    try {
      const result = await sendNotification({ channel: "mqtt", config: { url: r.url, topic: `${topic}/x` }, payload: drift, deliveryId: "d", now, allowPrivate: false });
      expect(result).toMatchObject({ ok: false, retryable: false });
      expect(r.connections()).toBe(0);
    } finally {
      await r.close();
    }
  });

  it("a broker that is down is retryable and the login's password never shows", async () => {
    const r = await relay(0);
    const url = r.url.replace("mqtt://", "mqtt://ha:s3cr3t-pass@");
    await r.close();
    const result = await sendNotification({ channel: "mqtt", config: { url, topic: "t" }, payload: drift, deliveryId: "d", now, allowPrivate: true, timeoutMs: 2000 });
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect(JSON.stringify(result)).not.toContain("s3cr3t");
  });

  it("takes mqtt:// and mqtts:// only, and topics without wildcards", () => {
    expect(parseChannelSettings("mqtt", { url: "mqtts://user:pw@broker.example.com:8883", topic: "driftwatch/events", retain: true })).toEqual({ ok: true, settings: { url: "mqtts://user:pw@broker.example.com:8883", topic: "driftwatch/events", retain: true } });
    expect(parseChannelSettings("mqtt", { url: "http://broker.example.com", topic: "t" })).toEqual({ ok: false, problems: [{ pointer: "/config/url", detail: "must be an mqtt:// or mqtts:// address" }] });
    expect(parseChannelSettings("mqtt", { url: "mqtt://broker.example.com", topic: "a/#" })).toMatchObject({ ok: false, problems: [{ pointer: "/config/topic" }] });
    expect(parseChannelSettings("mqtt", { url: "mqtt://broker.example.com" })).toMatchObject({ ok: false, problems: [{ pointer: "/config/topic" }] });
  });
});

describe("MQTT: gate refused", () => {
  it("publishes the webhook's JSON with the delivery id", () => {
    expect(JSON.parse(renderMqttMessage(gateFixture as GateRefusedPayload, "dlv_1"))).toEqual({ ...gateFixture, delivery_id: "dlv_1" });
  });
});
