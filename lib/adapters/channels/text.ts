// Text helpers the chat renderers share.
import type { UpgradePlanItem } from "@/lib/domain/notifications/payloads";
import { REASON_LABEL, safeHttpUrl, versionMove } from "@/lib/domain/notifications/wording";

/** Backslash-escapes what Markdown (CommonMark, Discord's dialect) would read inline as formatting or a link. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_~|[\]<>])/g, "\\$1");
}

/** `[label](url)`, or the escaped label when the URL is not http(s). */
export function markdownLink(url: string | null, label: string): string {
  const safe = safeHttpUrl(url);
  return safe ? `[${escapeMarkdown(label)}](${safe.replace(/\)/g, "%29").replace(/ /g, "%20")})` : escapeMarkdown(label);
}

/** Cuts `text` to `max` characters, ending in an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A checklist line of the upgrade plan in Markdown. */
export function planLineMarkdown(item: UpgradePlanItem): string {
  const notes = safeHttpUrl(item.release_notes_url) ? ` · ${markdownLink(item.release_notes_url, "release notes")}` : "";
  return `☐ **${escapeMarkdown(item.service)}** (${escapeMarkdown(item.environment)}): ${escapeMarkdown(versionMove(item))} · ${REASON_LABEL[item.reason]}${notes}`;
}

/**
 * Joins lines until `max` characters, then says how many were left out
 * (with `more(n)`), so a long plan still fits the receiver's limit.
 */
export function fitLines(lines: readonly string[], max: number, more: (n: number) => string): string {
  const kept: string[] = [];
  let size = 0;
  for (const [i, line] of lines.entries()) {
    const tail = more(lines.length - i);
    if (size + line.length + 1 + tail.length + 1 > max) return [...kept, tail].join("\n");
    kept.push(line);
    size += line.length + 1;
  }
  return kept.join("\n");
}
