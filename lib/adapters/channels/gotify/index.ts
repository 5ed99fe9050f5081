// Gotify: POST /message on the server with an application token
// (X-Gotify-Key), never in the address.
import { z } from "zod";
import { defineChannel, MASK, maskPassword, str } from "../channel";
import { httpUrl, secretString } from "../config";
import { postJson } from "../http-post";
import { renderGotifyMessage } from "./render";

export const gotifyConfigSchema = z.object({
  /** The server's address, with its sub-path if it has one. */
  url: httpUrl,
  /** An application token (Apps › Create application). */
  token: secretString(200),
});

/** `https://gotify.example.com/sub` → `https://gotify.example.com/sub/message` */
export function gotifyMessageUrl(server: string): string {
  const url = new URL(server);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/message`;
  url.search = "";
  return url.href;
}

export const gotifyChannel = defineChannel({
  label: "Gotify",
  noun: "Gotify",
  help: "Your Gotify server and an application token (Apps › Create application); gotify://host/token works too.",
  schema: gotifyConfigSchema,
  fields: [
    { name: "url", label: "Server", help: "The Gotify server's address.", placeholder: "https://gotify.example.com" },
    { name: "token", label: "Application token", help: "Never shown again.", secret: true },
  ],
  shoutrrr: {
    scheme: "gotify",
    parse: (url) => {
      const parts = url.pathname.split("/").filter(Boolean);
      const token = parts.pop();
      if (!url.host || !token) return { ok: false, detail: "must read gotify://host[:port][/path]/token" };
      const disableTls = /^(yes|true|1)$/i.test(url.searchParams.get("disabletls") ?? url.searchParams.get("disableTLS") ?? "");
      const path = parts.length ? `/${parts.join("/")}` : "";
      return { ok: true, settings: { url: `${disableTls ? "http" : "https"}://${url.host}${path}`, token: decodeURIComponent(token) } };
    },
  },
  mask: (c) => ({ url: maskPassword(c.url), token: MASK }),
  secrets: (c) => str(c.token),
  destinations: (c) => [{ pointer: "/config/url", url: c.url }],
  send: (ctx) =>
    postJson(ctx, { url: gotifyMessageUrl(ctx.config.url), headers: { "X-Gotify-Key": ctx.config.token }, body: renderGotifyMessage(ctx.payload), receiver: "Gotify", secrets: [ctx.config.token] }),
});
