// Colours of the server-drawn charts. Each colour is a token with a light and
// a dark value. In "auto" mode the chart's embedded <style> reads the page's
// custom properties (globals.css defines --fg, --muted, --line…) and falls back
// to the token's own value, switched by prefers-color-scheme, so a chart looks
// right inline in the app, opened on its own, and with JavaScript disabled.
// "light" and "dark" write plain colours (print, previews, renderers without CSS variables).
import type { DriftKind } from "@/lib/domain/policy";

export type ThemeMode = "auto" | "light" | "dark";
export type Token = { readonly variable: string; readonly light: string; readonly dark: string };

const token = (variable: string, light: string, dark: string): Token => ({ variable, light, dark });

export const UI_TOKENS = {
  fg: token("--fg", "#17181a", "#e9eaec"),
  muted: token("--muted", "#5c6068", "#a2a6ad"),
  grid: token("--line", "#e2e3e0", "#2c2e33"),
  axis: token("--dw-chart-axis", "#a9aba6", "#4d5057"),
  track: token("--surface-2", "#f0f1ef", "#202125"),
} as const;

/** Categorical colours for environments, in pipeline order. */
export const SERIES_TOKENS: readonly Token[] = [
  token("--dw-chart-series-1", "#3451d1", "#8fa4ff"),
  token("--dw-chart-series-2", "#0e8a7d", "#4fd1bd"),
  token("--dw-chart-series-3", "#d9730d", "#ffb066"),
  token("--dw-chart-series-4", "#9a3fc4", "#d39cf2"),
  token("--dw-chart-series-5", "#c7365f", "#ff8fb0"),
  token("--dw-chart-series-6", "#5a8a00", "#a6d94f"),
  token("--dw-chart-series-7", "#0a7fb8", "#6cc8ff"),
  token("--dw-chart-series-8", "#8a6a3b", "#d4b483"),
];

/** One colour per drift kind; eol reads as the most alarming. */
export const DRIFT_KIND_TOKENS: Record<DriftKind, Token> = {
  env: token("--dw-chart-drift-env", "#0e8a7d", "#4fd1bd"),
  upstream: token("--dw-chart-drift-upstream", "#3451d1", "#8fa4ff"),
  inconsistent: token("--dw-chart-drift-inconsistent", "#d9730d", "#ffb066"),
  declared: token("--dw-chart-drift-declared", "#9a3fc4", "#d39cf2"),
  eol: token("--dw-chart-drift-eol", "#c42b1c", "#ff8a80"),
};

/** Timeline segments: a quiet fill that text reads on, and a strong mark where a version starts. */
export const VERSION_TOKENS: readonly { fill: Token; mark: Token }[] = [
  { fill: token("--dw-chart-version-1", "#dfe5ff", "#26325e"), mark: token("--dw-chart-version-mark-1", "#3451d1", "#8fa4ff") },
  { fill: token("--dw-chart-version-2", "#d4f2ec", "#143d37"), mark: token("--dw-chart-version-mark-2", "#0e8a7d", "#4fd1bd") },
  { fill: token("--dw-chart-version-3", "#fde6cc", "#4a3113"), mark: token("--dw-chart-version-mark-3", "#d9730d", "#ffb066") },
  { fill: token("--dw-chart-version-4", "#f0ddf9", "#3d2650"), mark: token("--dw-chart-version-mark-4", "#9a3fc4", "#d39cf2") },
  { fill: token("--dw-chart-version-5", "#fbdde6", "#4a1f2e"), mark: token("--dw-chart-version-mark-5", "#c7365f", "#ff8fb0") },
  { fill: token("--dw-chart-version-6", "#e5f1cc", "#2d3d14"), mark: token("--dw-chart-version-mark-6", "#5a8a00", "#a6d94f") },
  { fill: token("--dw-chart-version-7", "#d6edf9", "#13374c"), mark: token("--dw-chart-version-mark-7", "#0a7fb8", "#6cc8ff") },
  { fill: token("--dw-chart-version-8", "#efe5d5", "#3d3323"), mark: token("--dw-chart-version-mark-8", "#8a6a3b", "#d4b483") },
];

/** The series colour for position `i`; the palette repeats after eight. */
export function seriesToken(i: number): Token {
  return SERIES_TOKENS[i % SERIES_TOKENS.length] ?? UI_TOKENS.fg;
}

export const FONT_FAMILY = "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', sans-serif";

/** A CSS rule whose colour values are tokens; plain strings are written as they are, in every mode. */
export type ThemeRule = { selector: string; declarations: Record<string, Token | string> };

function declarations(rule: ThemeRule, mode: "light" | "dark", useVariables: boolean, tokensOnly: boolean): string {
  let out = "";
  for (const [property, value] of Object.entries(rule.declarations)) {
    if (typeof value === "string") {
      if (!tokensOnly) out += `${property}:${value};`;
      continue;
    }
    const colour = value[mode];
    out += `${property}:${useVariables ? `var(${value.variable},${colour})` : colour};`;
  }
  return out;
}

/** The embedded `<style>` element for `rules`, scoped by the caller's selectors. */
export function themeStyle(rules: readonly ThemeRule[], mode: ThemeMode): string {
  if (mode !== "auto") {
    return `<style>${rules.map((r) => `${r.selector}{${declarations(r, mode, false, false)}}`).join("")}</style>`;
  }
  const light = rules.map((r) => `${r.selector}{${declarations(r, "light", true, false)}}`).join("");
  const dark = rules
    .filter((r) => Object.values(r.declarations).some((v) => typeof v !== "string"))
    .map((r) => `${r.selector}{${declarations(r, "dark", true, true)}}`)
    .join("");
  return `<style>${light}@media (prefers-color-scheme: dark){${dark}}</style>`;
}
