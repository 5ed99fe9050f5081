// An environment's gate settings: what may run there, decided from what ran in
// the environment before it. Stored as one JSON document per environment, into
// which each change's fields are merged; absent fields take the defaults.
import { formatDuration, parseDuration } from "../duration";

export const GATE_MODES = ["off", "audit", "enforce"] as const;
export type GateMode = (typeof GATE_MODES)[number];
export const GATE_UNKNOWN = ["allow", "refuse"] as const;
export type GateUnknown = (typeof GATE_UNKNOWN)[number];

export type GateSettings = { mode: GateMode; soakMs: number; refuseEol: boolean; unknown: GateUnknown };

export const DEFAULT_GATE: GateSettings = { mode: "off", soakMs: 0, refuseEol: true, unknown: "allow" };

/** The settings as the API shows them: `soak` a duration string (`0s`, `24h`). */
export type GateSettingsOut = { mode: GateMode; soak: string; refuse_eol: boolean; unknown: GateUnknown };

/** Settings from a stored document; anything missing or malformed takes the default. */
export function gateSettingsOf(stored: unknown): GateSettings {
  const doc = stored !== null && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  const mode = GATE_MODES.find((m) => m === doc.mode) ?? DEFAULT_GATE.mode;
  const unknown = GATE_UNKNOWN.find((u) => u === doc.unknown) ?? DEFAULT_GATE.unknown;
  // `0s`, `0` and anything unreadable are no soak (parseDuration has no zero).
  const soakMs = typeof doc.soak === "string" ? (parseDuration(doc.soak) ?? 0) : DEFAULT_GATE.soakMs;
  const refuseEol = typeof doc.refuse_eol === "boolean" ? doc.refuse_eol : DEFAULT_GATE.refuseEol;
  return { mode, soakMs, refuseEol, unknown };
}

export function gateSettingsOut(s: GateSettings): GateSettingsOut {
  return { mode: s.mode, soak: s.soakMs === 0 ? "0s" : formatDuration(s.soakMs), refuse_eol: s.refuseEol, unknown: s.unknown };
}
