// A Matrix homeserver on loopback that behaves as the spec says for
// PUT …/send/m.room.message/{txnId}: the same transaction id (same access
// token) is the same event, so a retry after a lost answer posts nothing new.
import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import type { DriftEventPayload } from "@/lib/domain/notifications/payloads";
import { parseChannelSettings, sendNotification } from "../index";
import { startReceiver, type Receiver } from "../test-support";
import { matrixTransactionId } from "./index";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload } from "@/lib/domain/notifications/payloads";
import { renderMatrixMessage } from "./render";

const drift = driftFixture as DriftEventPayload;
const now = new Date("2026-11-20T10:15:00Z");
const room = "!AbCdEfGhIj:example.org";
const accessToken = "syt_ZHJpZnR3YXRjaA_QmFzZTY0U2VjcmV0_1a2b3c";

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** Stores each new transaction as a room event; the first answer is lost (502 after storing). */
function homeserver() {
  const events = new Map<string, unknown>();
  let loseFirstAnswer = true;
  return {
    events,
    reply: (req: { method: string; path: string; headers: Record<string, unknown>; body: string }, res: import("node:http").ServerResponse) => {
      const m = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/m\.room\.message\/([^/]+)$/.exec(req.path);
      if (req.method !== "PUT" || !m) return res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ errcode: "M_UNRECOGNIZED", error: "Unrecognized request" }));
      if (req.headers.authorization !== `Bearer ${accessToken}`) return res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ errcode: "M_UNKNOWN_TOKEN", error: "Invalid access token passed." }));
      const key = `${decodeURIComponent(m[1]!)}|${decodeURIComponent(m[2]!)}`;
      if (!events.has(key)) events.set(key, JSON.parse(req.body));
      if (loseFirstAnswer) {
        loseFirstAnswer = false;
        return res.writeHead(502).end();
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ event_id: `$event${events.size}` }));
    },
  };
}

describe("Matrix client-server API", () => {
  it("PUTs m.room.message with a transaction id from the delivery; the retry after a lost answer posts once", async () => {
    const hs = homeserver();
    receiver = await startReceiver(hs.reply);
    const config = { homeserver: receiver.url("/"), room_id: room, access_token: accessToken };
    const send = () => sendNotification({ channel: "matrix", config, payload: drift, deliveryId: "dlv_matrix_1", now, allowPrivate: true });
    expect(await send()).toMatchObject({ ok: false, retryable: true });
    expect(await send()).toEqual({ ok: true });
    expect(receiver.received).toHaveLength(2);
    const [a, b] = receiver.received;
    expect(a!.path).toBe(`/_matrix/client/v3/rooms/${encodeURIComponent(room)}/send/m.room.message/${matrixTransactionId("dlv_matrix_1")}`);
    expect(b!.path).toBe(a!.path);
    expect([b!.method, b!.headers["content-type"], b!.headers.authorization]).toEqual(["PUT", "application/json", `Bearer ${accessToken}`]);
    expect(hs.events.size).toBe(1);
    expect([...hs.events.values()][0]).toEqual({
      msgtype: "m.notice",
      body: "Drift detected: web in production (newer release upstream)\nweb in production is behind the newest release.\nKind: Newer release upstream\nRunning: 1.25.0\nExpected: 1.27.3\nTeam: payments\nOpen since: 2026-11-20T10:00:00.000Z\nhttps://driftwatch.example.com/services/web",
      format: "org.matrix.custom.html",
      formatted_body: '<p><strong>Drift detected</strong>: <a href="https://driftwatch.example.com/services/web">web</a> in <strong>production</strong> (newer release upstream)</p><p>web in production is behind the newest release.</p><ul><li>Kind: Newer release upstream</li><li>Running: 1.25.0</li><li>Expected: 1.27.3</li><li>Team: payments</li><li>Open since: 2026-11-20T10:00:00.000Z</li></ul>',
    });

    // Another delivery is another transaction.
    await sendNotification({ channel: "matrix", config, payload: drift, deliveryId: "dlv_matrix_2", now, allowPrivate: true });
    expect(hs.events.size).toBe(2);
  });

  it("an unknown token is final, rate limits wait as told, and the token never shows", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(429, { "content-type": "application/json" }).end(JSON.stringify({ errcode: "M_LIMIT_EXCEEDED", error: "Too many requests", retry_after_ms: 2500 })));
    const limited = await sendNotification({ channel: "matrix", config: { homeserver: receiver.url("/"), room_id: room, access_token: accessToken }, payload: drift, deliveryId: "d", now, allowPrivate: true });
    expect(limited).toMatchObject({ ok: false, retryable: true, retryAfterSeconds: 3 });
    await receiver.close();
    const hs = homeserver();
    receiver = await startReceiver(hs.reply);
    const refused = await sendNotification({ channel: "matrix", config: { homeserver: receiver.url("/"), room_id: room, access_token: "syt_wrong" }, payload: drift, deliveryId: "d", now, allowPrivate: true });
    expect(refused).toMatchObject({ ok: false, retryable: false });
    expect(JSON.stringify(refused)).not.toContain("syt_");
  });

  it("reads matrix://:token@host/?rooms=!room with one room id", () => {
    expect(parseChannelSettings("matrix", { url: `matrix://:${accessToken}@matrix.example.org:8448/?rooms=${encodeURIComponent(room)}` })).toEqual({ ok: true, settings: { homeserver: "https://matrix.example.org:8448", room_id: room, access_token: accessToken } });
    expect(parseChannelSettings("matrix", { url: `matrix://:${accessToken}@localhost:8008/?rooms=${room}&disableTLS=yes` })).toEqual({ ok: true, settings: { homeserver: "http://localhost:8008", room_id: room, access_token: accessToken } });
    expect(parseChannelSettings("matrix", { url: "matrix://bot:hunter2@matrix.example.org/?rooms=!a:b" })).toMatchObject({ ok: false, problems: [{ pointer: "/config/url" }] });
    expect(parseChannelSettings("matrix", { url: `matrix://:${accessToken}@matrix.example.org/?rooms=%23ops:example.org` })).toMatchObject({ ok: false, problems: [{ pointer: "/config/url" }] });
    expect(parseChannelSettings("matrix", { homeserver: "https://m.example.org", room_id: "#alias:example.org", access_token: "t" })).toMatchObject({ ok: false, problems: [{ pointer: "/config/room_id" }] });
  });
});

describe("Matrix: gate refused", () => {
  it("is a notice with the line and the service link", () => {
    expect(renderMatrixMessage(gateFixture as GateRefusedPayload)).toEqual({
      msgtype: "m.notice",
      body: "Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)\nhttps://driftwatch.example.com/services/web",
      format: "org.matrix.custom.html",
      formatted_body: '<p>Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)</p><p><a href="https://driftwatch.example.com/services/web">Open web in Driftwatch</a></p>',
    });
  });
});
