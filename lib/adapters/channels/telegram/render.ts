// Telegram Bot API sendMessage in HTML parse mode: only <b>, <a> and text,
// everything else escaped, within the 4,096-character limit.
import { gateRefusedLine, type DriftEventPayload, type GateRefusedPayload, type NotificationPayload, type UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { REASON_LABEL, driftFacts, driftSentence, driftTitle, planTitle, safeHttpUrl, versionMove } from "@/lib/domain/notifications/wording";
import { fitLines } from "../text";
import { DRIFT_KIND_NAME, inSentence } from "@/lib/domain/words";

export const TELEGRAM_MAX_TEXT = 4096;

/** Telegram's HTML mode knows only these three entities. */
export function escapeTelegram(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function link(url: string | null, label: string): string {
  const safe = safeHttpUrl(url);
  return safe ? `<a href="${escapeTelegram(safe).replace(/"/g, "&quot;")}">${escapeTelegram(label)}</a>` : escapeTelegram(label);
}

function renderDrift(p: DriftEventPayload): string {
  return [
    `<b>${escapeTelegram(driftTitle(p))}</b>: ${link(p.url, p.service)} in <b>${escapeTelegram(p.environment)}</b> (${escapeTelegram(inSentence(DRIFT_KIND_NAME[p.kind]))})`,
    escapeTelegram(driftSentence(p)),
    "",
    ...driftFacts(p).map(([label, value]) => `${escapeTelegram(label)}: ${escapeTelegram(value)}`),
  ].join("\n");
}

function renderPlan(p: UpgradePlanPayload): string {
  const head = `<b>${escapeTelegram(planTitle(p))}</b>`;
  if (p.items.length === 0) return `${head}\nNothing to upgrade this week.`;
  const lines = p.items.map((item) => {
    const notes = safeHttpUrl(item.release_notes_url) ? ` · ${link(item.release_notes_url, "release notes")}` : "";
    return `☐ <b>${escapeTelegram(item.service)}</b> (${escapeTelegram(item.environment)}): ${escapeTelegram(versionMove(item))} · ${REASON_LABEL[item.reason]}${notes}`;
  });
  const tail = link(p.url, "Open the updates list");
  return `${head}\n${fitLines(lines, TELEGRAM_MAX_TEXT - head.length - tail.length - 2, (n) => `…and ${n} more.`)}\n${tail}`;
}

function renderGateRefused(p: GateRefusedPayload): string {
  const tail = link(p.url, `Open ${p.service} in Driftwatch`);
  return `${escapeTelegram(gateRefusedLine(p).slice(0, TELEGRAM_MAX_TEXT / 2))}\n${tail}`;
}

export type TelegramMessage = { chat_id: string; text: string; parse_mode: "HTML"; link_preview_options: { is_disabled: true } };

export function renderTelegramMessage(payload: NotificationPayload, chatId: string): TelegramMessage {
  const text = payload.event === "upgrade_plan" ? renderPlan(payload) : payload.event === "gate_refused" ? renderGateRefused(payload) : renderDrift(payload);
  return { chat_id: chatId, text, parse_mode: "HTML", link_preview_options: { is_disabled: true } };
}
