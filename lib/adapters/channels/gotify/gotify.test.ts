// Gotify on loopback: POST /message with X-Gotify-Key and {title, message,
// priority, extras}, answered with the stored message as Gotify does.
import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import type { DriftEventPayload } from "@/lib/domain/notifications/payloads";
import { parseChannelSettings, sendNotification } from "../index";
import { startReceiver, type Receiver } from "../test-support";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload } from "@/lib/domain/notifications/payloads";
import { GOTIFY_PRIORITY, renderGotifyMessage } from "./render";

const drift = driftFixture as DriftEventPayload;
const now = new Date("2026-11-20T10:15:00Z");

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("Gotify", () => {
  it("POSTs /message with the app token in X-Gotify-Key; a 500 is retried and delivered once", async () => {
    let failNext = true;
    receiver = await startReceiver((req, res) => {
      if (failNext) {
        failNext = false;
        return res.writeHead(500).end();
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: 25, appid: 5, date: "2026-11-20T10:15:00Z", ...JSON.parse(req.body) }));
    });
    const config = { url: receiver.url("/gotify/"), token: "AzyoeNS.D4iJLVa" };
    const send = () => sendNotification({ channel: "gotify", config, payload: { ...drift, kind: "eol" }, deliveryId: "dlv_gotify_1", now, allowPrivate: true });
    expect(await send()).toMatchObject({ ok: false, retryable: true });
    expect(await send()).toEqual({ ok: true });
    const req = receiver.received[1]!;
    expect([req.method, req.path, req.headers["content-type"], req.headers["x-gotify-key"]]).toEqual(["POST", "/gotify/message", "application/json", "AzyoeNS.D4iJLVa"]);
    expect(JSON.parse(req.body)).toEqual({
      title: "Drift detected: web in production (end of life)",
      message: "web in production runs a release cycle at or near its end of life.\n\n- **Kind:** End of life\n- **Running:** 1.25.0\n- **Expected:** 1.27.3\n- **Team:** payments\n- **Open since:** 2026-11-20T10:00:00.000Z\n\n[Open web in Driftwatch](https://driftwatch.example.com/services/web)",
      priority: 8,
      extras: { "client::display": { contentType: "text/markdown" }, "client::notification": { click: { url: "https://driftwatch.example.com/services/web" } } },
    });
  });

  it("a token Gotify refuses (401) is final", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "Unauthorized", errorCode: 401, errorDescription: "you need to provide a valid access token or user credentials to access this api" })));
    expect(await sendNotification({ channel: "gotify", config: { url: receiver.url("/"), token: "wrong" }, payload: drift, deliveryId: "d", now, allowPrivate: true })).toMatchObject({ ok: false, retryable: false });
  });

  it("reads gotify:// addresses", () => {
    expect(parseChannelSettings("gotify", { url: "gotify://gotify.example.com:443/AzyoeNS.D4iJLVa/?title=x&priority=1" })).toEqual({ ok: true, settings: { url: "https://gotify.example.com:443", token: "AzyoeNS.D4iJLVa" } });
    expect(parseChannelSettings("gotify", { url: "gotify://example.com/path/to/gotify/AzyoeNS.D4iJLVa?disabletls=yes" })).toEqual({ ok: true, settings: { url: "http://example.com/path/to/gotify", token: "AzyoeNS.D4iJLVa" } });
    expect(parseChannelSettings("gotify", { url: "gotify://example.com" })).toMatchObject({ ok: false, problems: [{ pointer: "/config/url" }] });
  });
});

describe("Gotify: gate refused", () => {
  it("titles the refusal, says why and clicks through to the service", () => {
    const m = renderGotifyMessage(gateFixture as GateRefusedPayload);
    expect(m).toMatchObject({ title: "Gate refused: web 3.0.0 in production", priority: GOTIFY_PRIORITY.medium });
    expect(m.message.split("\n")[0]).toBe("Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)");
    expect(m.extras["client::notification"]).toEqual({ click: { url: "https://driftwatch.example.com/services/web" } });
  });
});
