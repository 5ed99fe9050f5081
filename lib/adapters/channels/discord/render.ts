// Discord webhook messages: one embed, its colour by urgency, its title a
// link to the service page; no mentions are ever parsed.
import { gateRefusedLine, gateRefusedTitle, type DriftEventPayload, type GateRefusedPayload, type NotificationPayload, type UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { urgencyOf, type Urgency } from "@/lib/domain/notifications/urgency";
import { driftFacts, driftSentence, driftSubject, driftTitle, planTitle, safeHttpUrl } from "@/lib/domain/notifications/wording";
import { escapeMarkdown, fitLines, markdownLink, planLineMarkdown, truncate } from "../text";

export type DiscordEmbed = {
  title: string;
  url?: string;
  description: string;
  color: number;
  fields?: Array<{ name: string; value: string; inline: boolean }>;
  timestamp: string;
  footer: { text: string };
};
export type DiscordMessage = { username: "Driftwatch"; allowed_mentions: { parse: [] }; embeds: [DiscordEmbed] };

/** Discord's limits: title 256, description 4,096, field value 1,024 characters. */
export const DISCORD_MAX_TITLE = 256;
export const DISCORD_MAX_DESCRIPTION = 4096;

export const DISCORD_COLOR: Record<Urgency, number> = { high: 0xd1242f, medium: 0xbf8700, low: 0x0969da, resolved: 0x1a7f37 };

function message(embed: DiscordEmbed): DiscordMessage {
  return { username: "Driftwatch", allowed_mentions: { parse: [] }, embeds: [embed] };
}

function renderDrift(p: DriftEventPayload): DiscordMessage {
  const url = safeHttpUrl(p.url);
  return message({
    title: truncate(`${driftTitle(p)}: ${driftSubject(p)}`, DISCORD_MAX_TITLE),
    ...(url ? { url } : {}),
    description: `${escapeMarkdown(driftSentence(p))}\n${markdownLink(p.url, `Open ${p.service} in Driftwatch`)}`,
    color: DISCORD_COLOR[urgencyOf(p)],
    fields: driftFacts(p).map(([name, value]) => ({ name, value: truncate(value, 1024), inline: true })),
    timestamp: p.occurred_at,
    footer: { text: `Driftwatch · ${p.workspace}` },
  });
}

function renderPlan(p: UpgradePlanPayload): DiscordMessage {
  const url = safeHttpUrl(p.url);
  const lines = p.items.map(planLineMarkdown);
  const description = lines.length === 0 ? "Nothing to upgrade this week." : fitLines(lines, DISCORD_MAX_DESCRIPTION, (n) => `…and ${n} more in ${markdownLink(p.url, "the updates list")}.`);
  return message({
    title: truncate(planTitle(p), DISCORD_MAX_TITLE),
    ...(url ? { url } : {}),
    description,
    color: DISCORD_COLOR[urgencyOf(p)],
    timestamp: p.occurred_at,
    footer: { text: `Driftwatch · ${p.workspace}` },
  });
}

function renderGateRefused(p: GateRefusedPayload): DiscordMessage {
  const url = safeHttpUrl(p.url);
  return message({
    title: truncate(gateRefusedTitle(p), DISCORD_MAX_TITLE),
    ...(url ? { url } : {}),
    description: truncate(`${escapeMarkdown(gateRefusedLine(p))}\n${markdownLink(p.url, `Open ${p.service} in Driftwatch`)}`, DISCORD_MAX_DESCRIPTION),
    color: DISCORD_COLOR[urgencyOf(p)],
    timestamp: p.decided_at,
    footer: { text: `Driftwatch · ${p.workspace}` },
  });
}

export function renderDiscordMessage(payload: NotificationPayload): DiscordMessage {
  if (payload.event === "gate_refused") return renderGateRefused(payload);
  return payload.event === "upgrade_plan" ? renderPlan(payload) : renderDrift(payload);
}
