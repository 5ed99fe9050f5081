// PagerDuty through the Events API v2 with an integration's routing key. It
// carries drift events and gate refusals (a warning): an upgrade plan is not an incident.
import { z } from "zod";
import { isDriftEvent, type DriftEventPayload, type GateRefusedPayload, type NotificationPayload } from "@/lib/domain/notifications/payloads";
import { defineChannel, MASK, shown, str } from "../channel";
import { httpUrl } from "../config";
import { postJson } from "../http-post";
import { renderPagerDutyEvent } from "./render";

export const PAGERDUTY_EVENTS_URL = "https://events.pagerduty.com/v2/enqueue";

export const pagerDutyConfigSchema = z.object({
  /** The integration key of an Events API v2 integration. */
  routing_key: z.string().regex(/^[A-Za-z0-9]{32}$/, { message: "must be a 32-character integration key (Events API v2)" }),
  /** Another events address (PagerDuty's EU service region, a proxy). */
  events_url: httpUrl.optional(),
});

const carried = (p: NotificationPayload): p is DriftEventPayload | GateRefusedPayload => isDriftEvent(p) || p.event === "gate_refused";

export const pagerDutyChannel = defineChannel({
  label: "PagerDuty",
  noun: "PagerDuty",
  help: "An Events API v2 integration's key: a detected drift triggers an alert, its resolution resolves it. Carries drift events and gate refusals (as warnings), not the weekly plan.",
  schema: pagerDutyConfigSchema,
  fields: [
    { name: "routing_key", label: "Integration key", help: "Service › Integrations › Events API v2. Never shown again.", secret: true },
    { name: "events_url", label: "Events address", help: `Optional; ${PAGERDUTY_EVENTS_URL} by default (https://events.eu.pagerduty.com/v2/enqueue in the EU).`, placeholder: PAGERDUTY_EVENTS_URL, optional: true },
  ],
  events: ["drift_detected", "drift_resolved", "gate_refused"],
  opensIncidents: true,
  mask: (c) => ({ routing_key: MASK, ...shown(c, "events_url") }),
  secrets: (c) => str(c.routing_key),
  destinations: (c) => [{ pointer: c.events_url ? "/config/events_url" : "/config/routing_key", url: c.events_url ?? PAGERDUTY_EVENTS_URL }],
  send: async (ctx) => {
    if (!carried(ctx.payload)) return { ok: false, retryable: false, error: "PagerDuty carries drift events and gate refusals only." };
    return postJson(ctx, { url: ctx.config.events_url ?? PAGERDUTY_EVENTS_URL, body: renderPagerDutyEvent(ctx.payload, ctx.config.routing_key), receiver: "PagerDuty", secrets: [ctx.config.routing_key] });
  },
});
