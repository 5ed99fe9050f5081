// Matrix through the client-server API with an access token:
// PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}. The
// transaction id comes from the delivery id, so the homeserver treats a retry
// of one delivery as the same event and the room sees it once.
import { z } from "zod";
import { defineChannel, MASK, maskPassword, shown, str } from "../channel";
import { httpUrl, secretString } from "../config";
import { jsonRetryAfter, postJson } from "../http-post";
import { renderMatrixMessage } from "./render";

export const matrixConfigSchema = z.object({
  /** The homeserver's client-server API address. */
  homeserver: httpUrl,
  /** A room id (!abc:example.org); the account must have joined it. */
  room_id: z.string().max(255).regex(/^![^:\s]+:[^\s]+$/, { message: "must be a room id: !opaque:server (Room settings › Advanced)" }),
  access_token: secretString(),
});

export function matrixTransactionId(deliveryId: string): string {
  return `driftwatch.${deliveryId}`;
}

export function matrixSendUrl(homeserver: string, roomId: string, txnId: string): string {
  return `${homeserver.replace(/\/+$/, "")}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${encodeURIComponent(txnId)}`;
}

/** Matrix's 429 body: `{"errcode":"M_LIMIT_EXCEEDED","retry_after_ms":2000}`. */
export const matrixRetryAfter = jsonRetryAfter((j) => j.retry_after_ms, "ms");

export const matrixChannel = defineChannel({
  label: "Matrix",
  noun: "Matrix",
  help: "A homeserver, a room id and an access token of an account in that room (Element: Settings › Help & About › Access token); matrix://:token@host/?rooms=!room:server works too.",
  schema: matrixConfigSchema,
  fields: [
    { name: "homeserver", label: "Homeserver", help: "The client-server API address.", placeholder: "https://matrix.example.org" },
    { name: "room_id", label: "Room id", help: "!opaque:server, from Room settings › Advanced.", placeholder: "!AbCdEf:example.org" },
    { name: "access_token", label: "Access token", help: "Of an account that has joined the room. Never shown again.", secret: true },
  ],
  shoutrrr: {
    scheme: "matrix",
    parse: (url) => {
      if (url.username) return { ok: false, detail: "give an access token, not a user and password: matrix://:token@host/?rooms=!room:server" };
      const token = decodeURIComponent(url.password);
      const rooms = (url.searchParams.get("rooms") ?? url.searchParams.get("room") ?? "").split(",").map((r) => r.trim()).filter(Boolean);
      if (!url.host || !token) return { ok: false, detail: "must read matrix://:token@host[:port]/?rooms=!room:server" };
      if (rooms.length !== 1 || !rooms[0]!.startsWith("!")) return { ok: false, detail: "must name exactly one room by its id (?rooms=!room:server); make one rule per room" };
      const disableTls = /^(yes|true|1)$/i.test(url.searchParams.get("disableTLS") ?? url.searchParams.get("disabletls") ?? "");
      return { ok: true, settings: { homeserver: `${disableTls ? "http" : "https"}://${url.host}`, room_id: rooms[0], access_token: token } };
    },
  },
  mask: (c) => ({ homeserver: maskPassword(c.homeserver), ...shown(c, "room_id"), access_token: MASK }),
  secrets: (c) => str(c.access_token),
  destinations: (c) => [{ pointer: "/config/homeserver", url: c.homeserver }],
  send: (ctx) =>
    postJson(ctx, {
      method: "PUT",
      url: matrixSendUrl(ctx.config.homeserver, ctx.config.room_id, matrixTransactionId(ctx.deliveryId)),
      headers: { Authorization: `Bearer ${ctx.config.access_token}` },
      body: renderMatrixMessage(ctx.payload),
      receiver: "Matrix",
      secrets: [ctx.config.access_token],
      retryAfterFromBody: matrixRetryAfter,
    }),
});
