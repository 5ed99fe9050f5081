// The badge image (spec "Badge"): a two-part, shields-style SVG, the label on
// grey and the running version with its state in the state's colour. Satori
// lays the text out in Inter and draws it as paths, so the badge looks the
// same wherever it is shown (a README, a wiki) without fonts installed there.
import type { ReactElement } from "react";
import satori from "satori";
import { BADGE_STATE_TEXT, type BadgeState } from "./badge-state";
import { getBadgeFonts } from "./fonts";
import { LruCache } from "./lru";
import { escapeXml } from "./svg";

export {
  BADGE_NOTES,
  BADGE_RULES,
  BADGE_STATE_TEXT,
  badgeState,
  explainBadgeState,
  worstBadgeState,
  type BadgeDrift,
  type BadgeRule,
  type BadgeState,
  type BadgeStateInput,
  type EolState,
  type VersionJump,
} from "./badge-state";

/** Background colours; white text reads on each at 4.5:1 or better (WCAG AA for small text). */
export const BADGE_COLOURS = {
  label: "#555555",
  up_to_date: "#2e7d32",
  behind: "#a45c00",
  attention: "#c62828",
  unknown: "#687079",
} as const satisfies Record<BadgeState | "label", string>;

export type BadgeInput = {
  /** The service, or `service · environment`; see badgeLabel. */
  label: string;
  /** The running version; empty when none is known. */
  version: string;
  state: BadgeState;
};

/** Longest label or version drawn, in characters; longer ones end in "…" (the title keeps them whole). */
export const BADGE_MAX_TEXT = 64;
const BADGE_HEIGHT = 20;
const CACHE_SIZE = 500;

const cache = new LruCache<string, Promise<string>>(CACHE_SIZE);

/** `web`, or `web · production` for a badge of one environment. */
export function badgeLabel(service: string, environment?: string | null): string {
  return environment === undefined || environment === null || environment === "" ? service : `${service} · ${environment}`;
}

/** What the badge says, in words: its `<title>` and `aria-label`. */
export function badgeText({ label, version, state }: BadgeInput): string {
  return version === "" ? `${label}: ${BADGE_STATE_TEXT[state]}` : `${label}: ${version}, ${BADGE_STATE_TEXT[state]}`;
}

function clip(text: string): string {
  // Control characters have no glyph and would draw as boxes.
  const chars = Array.from(text.replace(/[\u0000-\u001F\u007F-\u009F]/g, " ").trim());
  return chars.length > BADGE_MAX_TEXT ? `${chars.slice(0, BADGE_MAX_TEXT - 1).join("").trimEnd()}…` : chars.join("");
}

const element = (style: Record<string, string | number>, children: string | ReactElement[]): ReactElement => ({
  type: "div",
  key: null,
  props: { style, children },
});

function layout({ label, version, state }: BadgeInput): ReactElement {
  const part = { display: "flex", alignItems: "center", height: BADGE_HEIGHT, padding: "0 7px", whiteSpace: "pre" };
  const value = version === "" ? BADGE_STATE_TEXT[state] : `${clip(version)} · ${BADGE_STATE_TEXT[state]}`;
  return element(
    { display: "flex", height: BADGE_HEIGHT, borderRadius: 3, overflow: "hidden", fontFamily: "Inter", fontSize: 11, fontWeight: 600, color: "#ffffff" },
    [
      element({ ...part, backgroundColor: BADGE_COLOURS.label }, clip(label) || " "),
      element({ ...part, backgroundColor: BADGE_COLOURS[state] }, value),
    ],
  );
}

/** Adds the accessible name: `role="img"`, `aria-label` and a `<title>` as the first child. */
function withAccessibleName(svg: string, name: string): string {
  const escaped = escapeXml(name);
  return svg.replace(/^<svg\b([^>]*)>/, `<svg$1 role="img" aria-label="${escaped}"><title>${escaped}</title>`);
}

async function render(input: BadgeInput): Promise<string> {
  const svg = await satori(layout(input), { height: BADGE_HEIGHT, fonts: await getBadgeFonts() });
  return withAccessibleName(svg, badgeText(input));
}

/**
 * The badge as an SVG document. Rendered badges are kept (the last 500 by
 * label, version and state), and concurrent requests for one badge share a render.
 */
export function renderBadgeSvg(input: BadgeInput): Promise<string> {
  const key = JSON.stringify([input.label, input.version, input.state]);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const rendering = render(input);
  cache.set(key, rendering);
  rendering.catch(() => cache.delete(key));
  return rendering;
}
