// ntfy: the message is the body (plain text), the rest travels in headers
// (Title, Priority 1–5, Tags, Click), as ntfy's publish API takes them.
import { gateRefusedLine, gateRefusedTitle, type NotificationPayload } from "@/lib/domain/notifications/payloads";
import { urgencyOf, type Urgency } from "@/lib/domain/notifications/urgency";
import { REASON_LABEL, driftFacts, driftSentence, driftSubject, driftTitle, planTitle, safeHttpUrl, singleLine, versionMove } from "@/lib/domain/notifications/wording";
import { fitLines } from "../text";

/** ntfy keeps messages up to 4,096 bytes; longer ones become attachments. */
export const NTFY_MAX_MESSAGE = 3500;

export const NTFY_PRIORITY: Record<Urgency, number> = { high: 4, medium: 3, low: 2, resolved: 2 };
const EMOJI_TAG: Record<Urgency, string> = { high: "rotating_light", medium: "warning", low: "arrow_up", resolved: "white_check_mark" };

export type NtfyMessage = { title: string; message: string; priority: number; tags: string[]; click: string | null };

/** A tag is one header list item: no commas, one line. */
const tag = (text: string) => singleLine(text, 60).replace(/,/g, " ");

export function renderNtfyMessage(payload: NotificationPayload): NtfyMessage {
  const urgency = urgencyOf(payload);
  if (payload.event === "upgrade_plan") {
    const lines = payload.items.map((item) => `☐ ${item.service} (${item.environment}): ${versionMove(item)} · ${REASON_LABEL[item.reason]}`);
    return {
      title: singleLine(planTitle(payload)),
      message: lines.length === 0 ? "Nothing to upgrade this week." : fitLines(lines, NTFY_MAX_MESSAGE, (n) => `…and ${n} more in the updates list.`),
      priority: NTFY_PRIORITY[urgency],
      tags: [EMOJI_TAG[urgency], "driftwatch", "upgrade_plan"],
      click: safeHttpUrl(payload.url),
    };
  }
  if (payload.event === "gate_refused") {
    return {
      title: singleLine(gateRefusedTitle(payload)),
      message: gateRefusedLine(payload).slice(0, NTFY_MAX_MESSAGE),
      priority: NTFY_PRIORITY[urgency],
      tags: ["no_entry", "driftwatch", "gate_refused", tag(payload.environment)],
      click: safeHttpUrl(payload.url),
    };
  }
  return {
    title: singleLine(`${driftTitle(payload)}: ${driftSubject(payload)}`),
    message: [driftSentence(payload), ...driftFacts(payload).map(([label, value]) => `${label}: ${value}`)].join("\n"),
    priority: NTFY_PRIORITY[urgency],
    tags: [EMOJI_TAG[urgency], "driftwatch", tag(payload.kind), tag(payload.environment)],
    click: safeHttpUrl(payload.url),
  };
}

/** RFC 2047 for header values that are not plain ASCII; ntfy decodes it. */
export function headerValue(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, "utf8").toString("base64")}?=`;
}

export function ntfyHeaders(m: NtfyMessage): Record<string, string> {
  return {
    Title: headerValue(m.title),
    Priority: String(m.priority),
    Tags: headerValue(m.tags.join(",")),
    ...(m.click ? { Click: m.click } : {}),
  };
}
