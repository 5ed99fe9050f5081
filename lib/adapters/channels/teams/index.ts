// Microsoft Teams through a Workflows webhook (the Office 365 connectors are
// retired). The address carries its signature, so it is a secret.
import { z } from "zod";
import { defineChannel, maskUrl } from "../channel";
import { httpUrl } from "../config";
import { postJson } from "../http-post";
import { urlSecrets } from "../scrub";
import { renderTeamsMessage } from "./render";

export const teamsConfigSchema = z.object({ url: httpUrl });

export const teamsChannel = defineChannel({
  label: "Microsoft Teams (Workflows)",
  noun: "Teams",
  help: "In Teams, add the workflow “Post to a channel when a webhook request is received” and paste its address; a teams:// Shoutrrr address works too.",
  schema: teamsConfigSchema,
  fields: [{ name: "url", label: "Workflow URL", help: "The workflow's HTTP POST address, or teams://group@tenant/altId/groupOwner/extraId?host=….", placeholder: "https://prod-00.westeurope.logic.azure.com/workflows/…", secret: true }],
  shoutrrr: {
    scheme: "teams",
    parse: (url) => {
      const host = url.searchParams.get("host");
      const [altId, groupOwner, extraId] = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
      if (!url.username || !url.hostname || !altId || !groupOwner) return { ok: false, detail: "must read teams://group@tenant/altId/groupOwner/extraId?host=organization.webhook.office.com" };
      if (!host || !/^[A-Za-z0-9.-]+$/.test(host)) return { ok: false, detail: "needs ?host=organization.webhook.office.com" };
      const tail = [altId, groupOwner, ...(extraId ? [extraId] : [])].map(encodeURIComponent).join("/");
      return { ok: true, settings: { url: `https://${host}/webhookb2/${url.username}@${url.hostname}/IncomingWebhook/${tail}` } };
    },
  },
  mask: (c) => ({ url: maskUrl(c.url) }),
  secrets: (c) => (typeof c.url === "string" ? urlSecrets(c.url) : []),
  destinations: (c) => [{ pointer: "/config/url", url: c.url }],
  send: (ctx) => postJson(ctx, { url: ctx.config.url, body: renderTeamsMessage(ctx.payload), receiver: "Teams", secrets: urlSecrets(ctx.config.url) }),
});
