// Words shared by the Slack and e-mail renderers.
import type { DriftKind } from "@/lib/domain/policy";
import { DRIFT_KIND_NAME, inSentence, REASON_NAME } from "@/lib/domain/words";
import type { DriftEventPayload, UpgradePlanItem, UpgradePlanPayload, UpgradeReason } from "./payloads";

export const KIND_DESCRIPTION: Record<DriftKind, string> = {
  env: "runs an older version than the environment before it",
  upstream: "is behind the newest release",
  inconsistent: "has targets running different versions",
  declared: "runs something other than what the Compose files in Git declare",
  eol: "runs a release cycle at or near its end of life",
};

export const REASON_LABEL = Object.fromEntries(Object.entries(REASON_NAME).map(([r, name]) => [r, inSentence(name)])) as Record<UpgradeReason, string>;

export const version = (v: string | null) => v ?? "unknown";

export function driftTitle(p: DriftEventPayload): string {
  return p.event === "drift_detected" ? "Drift detected" : "Drift resolved";
}

/** "web in production (newer release upstream)" */
export function driftSubject(p: DriftEventPayload): string {
  return `${p.service} in ${p.environment} (${inSentence(DRIFT_KIND_NAME[p.kind])})`;
}

export function driftSentence(p: DriftEventPayload): string {
  if (p.event === "drift_resolved") return `${p.service} in ${p.environment}: ${inSentence(DRIFT_KIND_NAME[p.kind])} has ended.`;
  return `${p.service} in ${p.environment} ${KIND_DESCRIPTION[p.kind]}.`;
}

/** Label/value rows of a drift event, in display order. */
export function driftFacts(p: DriftEventPayload): Array<[label: string, value: string]> {
  const rows: Array<[string, string]> = [
    ["Kind", DRIFT_KIND_NAME[p.kind]],
    ["Running", version(p.running)],
    ["Expected", version(p.expected)],
  ];
  if (p.team) rows.push(["Team", p.team]);
  rows.push(["Open since", p.opened_at]);
  if (p.resolved_at) rows.push(["Resolved at", p.resolved_at]);
  return rows;
}

export function planTitle(p: UpgradePlanPayload): string {
  const n = p.items.length;
  return `Weekly upgrade plan for ${p.workspace}: ${n} ${n === 1 ? "upgrade" : "upgrades"}`;
}

/** "1.25.0 → 1.27.3" */
export function versionMove(item: UpgradePlanItem): string {
  return `${version(item.running)} → ${version(item.target_version)}`;
}

/** Only http(s) links are rendered; anything else (javascript:, data:) is dropped. */
export function safeHttpUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.toString() : null;
  } catch {
    return null;
  }
}

/** One line, no control characters: for subjects and other header-bound text. */
export function singleLine(text: string, max = 200): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
