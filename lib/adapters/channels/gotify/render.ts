// Gotify messages: title, Markdown message, priority by urgency (0–10, 8 and
// up make the phone ring), and a click-through link in `extras`.
import { gateRefusedLine, gateRefusedTitle, type NotificationPayload } from "@/lib/domain/notifications/payloads";
import { urgencyOf, type Urgency } from "@/lib/domain/notifications/urgency";
import { driftFacts, driftSentence, driftSubject, driftTitle, planTitle, safeHttpUrl } from "@/lib/domain/notifications/wording";
import { escapeMarkdown, fitLines, markdownLink, planLineMarkdown } from "../text";

export const GOTIFY_PRIORITY: Record<Urgency, number> = { high: 8, medium: 5, low: 3, resolved: 2 };

export type GotifyMessage = {
  title: string;
  message: string;
  priority: number;
  extras: { "client::display": { contentType: "text/markdown" }; "client::notification"?: { click: { url: string } } };
};

const MAX_MESSAGE = 8000;

export function renderGotifyMessage(payload: NotificationPayload): GotifyMessage {
  const click = safeHttpUrl(payload.url);
  const extras: GotifyMessage["extras"] = { "client::display": { contentType: "text/markdown" }, ...(click ? { "client::notification": { click: { url: click } } } : {}) };
  const priority = GOTIFY_PRIORITY[urgencyOf(payload)];
  if (payload.event === "upgrade_plan") {
    const lines = payload.items.map(planLineMarkdown);
    return {
      title: planTitle(payload),
      message: lines.length === 0 ? "Nothing to upgrade this week." : fitLines(lines, MAX_MESSAGE, (n) => `…and ${n} more in ${markdownLink(payload.url, "the updates list")}.`),
      priority,
      extras,
    };
  }
  if (payload.event === "gate_refused") {
    return {
      title: gateRefusedTitle(payload),
      message: `${escapeMarkdown(gateRefusedLine(payload))}\n\n${markdownLink(payload.url, `Open ${payload.service} in Driftwatch`)}`,
      priority,
      extras,
    };
  }
  return {
    title: `${driftTitle(payload)}: ${driftSubject(payload)}`,
    message: [
      escapeMarkdown(driftSentence(payload)),
      "",
      ...driftFacts(payload).map(([label, value]) => `- **${label}:** ${escapeMarkdown(value)}`),
      "",
      markdownLink(payload.url, `Open ${payload.service} in Driftwatch`),
    ].join("\n"),
    priority,
    extras,
  };
}
