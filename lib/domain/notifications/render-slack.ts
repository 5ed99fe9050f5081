// Slack-compatible incoming-webhook messages (Slack, Mattermost, Rocket.Chat):
// `text` is the notification fallback, `blocks` the message. Every piece of
// text from settings or upstream is escaped, so `<!channel>` stays literal.
import { gateRefusedLine, type DriftEventPayload, type GateRefusedPayload, type NotificationPayload, type UpgradePlanPayload } from "./payloads";
import { REASON_LABEL, driftFacts, driftSentence, driftSubject, driftTitle, planTitle, safeHttpUrl, versionMove } from "./wording";
import { DRIFT_KIND_NAME, inSentence } from "@/lib/domain/words";

export type SlackTextObject = { type: "mrkdwn"; text: string };
export type SlackBlock =
  | { type: "section"; text: SlackTextObject }
  | { type: "section"; fields: SlackTextObject[] }
  | { type: "context"; elements: SlackTextObject[] };
export type SlackMessage = { text: string; blocks: SlackBlock[] };

/** Slack's limits: 50 blocks a message, 3,000 characters a section. */
export const SLACK_MAX_BLOCKS = 50;
export const SLACK_MAX_SECTION_CHARS = 3000;

export function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** `<url|label>`, or the bare label when the URL is not http(s). */
export function slackLink(url: string | null, label: string): string {
  const safe = safeHttpUrl(url);
  if (!safe) return escapeSlack(label);
  return `<${escapeSlack(safe).replace(/\|/g, "%7C")}|${escapeSlack(label)}>`;
}

const mrkdwn = (text: string): SlackTextObject => ({ type: "mrkdwn", text });

function renderDrift(p: DriftEventPayload): SlackMessage {
  const headline = `*${driftTitle(p)}:* ${slackLink(p.url, p.service)} in *${escapeSlack(p.environment)}* (${escapeSlack(inSentence(DRIFT_KIND_NAME[p.kind]))})`;
  return {
    text: escapeSlack(`${driftTitle(p)}: ${driftSubject(p)}`),
    blocks: [
      { type: "section", text: mrkdwn(`${headline}\n${escapeSlack(driftSentence(p))}`) },
      {
        type: "section",
        fields: driftFacts(p).map(([label, value]) => mrkdwn(`*${label}*\n${escapeSlack(value)}`)),
      },
      { type: "context", elements: [mrkdwn(`Driftwatch · ${escapeSlack(p.workspace)} · event ${escapeSlack(p.id)}`)] },
    ],
  };
}

function checklistLine(item: UpgradePlanPayload["items"][number]): string {
  const notes = safeHttpUrl(item.release_notes_url) ? ` · ${slackLink(item.release_notes_url, "release notes")}` : "";
  return `☐ *${escapeSlack(item.service)}* (${escapeSlack(item.environment)}): ${escapeSlack(versionMove(item))} · ${REASON_LABEL[item.reason]}${notes}`;
}

function renderPlan(p: UpgradePlanPayload): SlackMessage {
  // Room for the title block and the closing block.
  const maxSections = SLACK_MAX_BLOCKS - 2;
  const sections: string[] = [];
  let shown = 0;
  for (const item of p.items) {
    const line = checklistLine(item).slice(0, SLACK_MAX_SECTION_CHARS);
    const last = sections.length - 1;
    const current = sections[last];
    if (current !== undefined && current.length + 1 + line.length <= SLACK_MAX_SECTION_CHARS) sections[last] = `${current}\n${line}`;
    else if (sections.length < maxSections) sections.push(line);
    else break;
    shown++;
  }
  if (p.items.length === 0) sections.push("Nothing to upgrade this week.");

  const more = p.items.length - shown;
  const closing: SlackBlock =
    more > 0
      ? { type: "section", text: mrkdwn(`…and ${more} more in ${slackLink(p.url, "the updates list")}.`) }
      : { type: "context", elements: [mrkdwn(`Driftwatch · ${slackLink(p.url, "open the updates list")}`)] };
  return {
    text: escapeSlack(planTitle(p)),
    blocks: [
      { type: "section", text: mrkdwn(`*${escapeSlack(planTitle(p))}*`) },
      ...sections.map((text): SlackBlock => ({ type: "section", text: mrkdwn(text) })),
      closing,
    ],
  };
}

function renderGateRefused(p: GateRefusedPayload): SlackMessage {
  const line = escapeSlack(gateRefusedLine(p));
  return {
    text: line,
    blocks: [
      { type: "section", text: mrkdwn(line.slice(0, SLACK_MAX_SECTION_CHARS)) },
      { type: "context", elements: [mrkdwn(`Driftwatch · ${escapeSlack(p.workspace)} · ${slackLink(p.url, `open ${p.service}`)}`)] },
    ],
  };
}

export function renderSlackMessage(payload: NotificationPayload): SlackMessage {
  switch (payload.event) {
    case "drift_detected":
    case "drift_resolved":
      return renderDrift(payload);
    case "upgrade_plan":
      return renderPlan(payload);
    case "gate_refused":
      return renderGateRefused(payload);
    default: {
      const never: never = payload;
      throw new Error(`Unknown event ${String((never as { event: unknown }).event)}`);
    }
  }
}
