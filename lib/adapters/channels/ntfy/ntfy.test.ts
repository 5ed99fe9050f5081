// ntfy on loopback: POST /<topic> with the message as the body and Title,
// Priority, Tags, Click and Authorization headers, as ntfy's publish API reads them.
import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import type { DriftEventPayload } from "@/lib/domain/notifications/payloads";
import { parseChannelSettings, sendNotification } from "../index";
import { startReceiver, type Receiver } from "../test-support";
import { headerValue } from "./render";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload } from "@/lib/domain/notifications/payloads";
import { NTFY_PRIORITY, renderNtfyMessage } from "./render";

const drift = driftFixture as DriftEventPayload;
const now = new Date("2026-11-20T10:15:00Z");

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("ntfy", () => {
  it("publishes with headers and a bearer token; a 502 is retried and delivered once", async () => {
    let failNext = true;
    receiver = await startReceiver((_req, res) => {
      if (failNext) {
        failNext = false;
        return res.writeHead(502).end();
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "sPs71M8A2T", time: 1763633700, event: "message", topic: "driftwatch-alerts" }));
    });
    const config = { url: receiver.url("/driftwatch-alerts"), token: "tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2" };
    const send = () => sendNotification({ channel: "ntfy", config, payload: { ...drift, kind: "eol" }, deliveryId: "dlv_ntfy_1", now, allowPrivate: true });
    expect(await send()).toMatchObject({ ok: false, retryable: true });
    expect(await send()).toEqual({ ok: true });
    const req = receiver.received[1]!;
    expect([req.method, req.path]).toEqual(["POST", "/driftwatch-alerts"]);
    expect(req.headers).toMatchObject({
      "content-type": "text/plain; charset=utf-8",
      title: "Drift detected: web in production (end of life)",
      priority: "4",
      tags: "rotating_light,driftwatch,eol,production",
      click: "https://driftwatch.example.com/services/web",
      authorization: "Bearer tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2",
    });
    expect(req.body).toBe("web in production runs a release cycle at or near its end of life.\nKind: End of life\nRunning: 1.25.0\nExpected: 1.27.3\nTeam: payments\nOpen since: 2026-11-20T10:00:00.000Z");
  });

  it("logs in with a user and password (Basic)", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(200).end("{}"));
    await sendNotification({ channel: "ntfy", config: { url: receiver.url("/t"), username: "phil", password: "mypass" }, payload: { ...drift, event: "drift_resolved" }, deliveryId: "d", now, allowPrivate: true });
    expect(receiver.received[0]!.headers).toMatchObject({ authorization: `Basic ${Buffer.from("phil:mypass").toString("base64")}`, priority: "2", tags: "white_check_mark,driftwatch,upstream,production" });
  });

  it("encodes a title that is not ASCII (RFC 2047)", () => {
    expect(headerValue("Drift: café")).toBe(`=?UTF-8?B?${Buffer.from("Drift: café").toString("base64")}?=`);
    expect(headerValue("plain")).toBe("plain");
  });

  it("reads ntfy:// addresses", () => {
    expect(parseChannelSettings("ntfy", { url: "ntfy://:tk_abc123@ntfy.example.com/alerts" })).toEqual({ ok: true, settings: { url: "https://ntfy.example.com/alerts", token: "tk_abc123" } });
    expect(parseChannelSettings("ntfy", { url: "ntfy://phil:secret@ntfy.example.com:8080/alerts?scheme=http" })).toEqual({ ok: true, settings: { url: "http://ntfy.example.com:8080/alerts", username: "phil", password: "secret" } });
    expect(parseChannelSettings("ntfy", { url: "ntfy://ntfy.sh/" })).toMatchObject({ ok: false, problems: [{ pointer: "/config/url" }] });
    expect(parseChannelSettings("ntfy", { url: "https://ntfy.sh/" })).toMatchObject({ ok: false, problems: [{ pointer: "/config/url", detail: "must name a topic: https://ntfy.sh/<topic>" }] });
  });
});

describe("ntfy: gate refused", () => {
  it("titles the refusal, tags it and clicks through to the service", () => {
    expect(renderNtfyMessage(gateFixture as GateRefusedPayload)).toEqual({
      title: "Gate refused: web 3.0.0 in production",
      message: "Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)",
      priority: NTFY_PRIORITY.medium,
      tags: ["no_entry", "driftwatch", "gate_refused", "production"],
      click: "https://driftwatch.example.com/services/web",
    });
  });
});
