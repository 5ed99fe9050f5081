import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { BADGE_COLOURS, BADGE_MAX_TEXT, badgeLabel, badgeText, renderBadgeSvg } from "./badge";
import { measureText } from "./text-width";

const widthOf = (svg: string) => Number(/^<svg[^>]*\bwidth="(\d+(?:\.\d+)?)"/.exec(svg)?.[1]);

/** WCAG contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe("renderBadgeSvg", () => {
  it("draws the label and the version in the state colour, with an accessible name", async () => {
    const svg = await renderBadgeSvg({ label: "web · production", version: "1.27.3", state: "behind" });
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-label="web · production: 1\.27\.3, outdated"><title>web · production: 1\.27\.3, outdated<\/title>/);
    expect(svg).toContain(`fill="${BADGE_COLOURS.behind}"`);
    expect(svg).toContain(`fill="${BADGE_COLOURS.label}"`);
    expect(svg).not.toContain(BADGE_COLOURS.up_to_date);
    expect(svg).toMatch(/<path [^>]*d="M/); // text drawn as glyph outlines
  });

  it.each([
    ["up_to_date", "up to date"],
    ["attention", "needs attention"],
    ["unknown", "unknown"],
  ] as const)("uses the %s colour and words", async (state, words) => {
    const svg = await renderBadgeSvg({ label: "api", version: "2.0.1", state });
    expect(svg).toContain(`fill="${BADGE_COLOURS[state]}"`);
    expect(svg).toContain(`<title>api: 2.0.1, ${words}</title>`);
  });

  it("says only the state when no version is known", async () => {
    const svg = await renderBadgeSvg({ label: "worker", version: "", state: "unknown" });
    expect(svg).toContain("<title>worker: unknown</title>");
  });

  it("escapes the label and version in the title and aria-label, and stays valid XML", async () => {
    const svg = await renderBadgeSvg({ label: `<script>alert("x")</script> & co's`, version: `1.0 "<b>"`, state: "attention" });
    expect(svg).not.toContain("<script");
    expect(svg).toContain(
      "<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co&#39;s: 1.0 &quot;&lt;b&gt;&quot;, needs attention</title>",
    );
    expect(svg).toContain('aria-label="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co&#39;s: 1.0 &quot;&lt;b&gt;&quot;, needs attention"');
    expect(() => new Resvg(svg)).not.toThrow();
  });

  it("grows with the text it measured, so long versions fit", async () => {
    const short = await renderBadgeSvg({ label: "web", version: "1.27.3", state: "up_to_date" });
    const long = await renderBadgeSvg({ label: "web", version: "1.27.3-alpine3.20-perl-otel-bookworm", state: "up_to_date" });
    const extra = measureText("-alpine3.20-perl-otel-bookworm", 11, 600);
    expect(widthOf(long) - widthOf(short)).toBeGreaterThan(extra - 4);
    expect(widthOf(long) - widthOf(short)).toBeLessThan(extra + 4);
  });

  it("cuts very long texts in the drawing but keeps them whole in the title", async () => {
    const version = `sha-${"0123456789abcdef".repeat(8)}`;
    const svg = await renderBadgeSvg({ label: "web", version, state: "behind" });
    expect(svg).toContain(`<title>web: ${version}, outdated</title>`);
    expect(widthOf(svg)).toBeLessThan(measureText("web", 11, 600) + measureText("0".repeat(BADGE_MAX_TEXT + 12), 11, 600) + 40);
  });

  it("serves a repeated badge from its cache and keeps states apart", async () => {
    const input = { label: "cache-test", version: "9.9.9", state: "behind" } as const;
    const first = renderBadgeSvg(input);
    expect(renderBadgeSvg({ ...input })).toBe(first);
    expect(await renderBadgeSvg({ ...input, state: "attention" })).not.toBe(await first);
  });
});

describe("badge words", () => {
  it("builds the label and the spoken text", () => {
    expect([badgeLabel("web"), badgeLabel("web", "production"), badgeLabel("web", null)]).toEqual(["web", "web · production", "web"]);
    expect(badgeText({ label: "web", version: "1.2.3", state: "up_to_date" })).toBe("web: 1.2.3, up to date");
  });

  it("keeps white text readable on every background (WCAG AA, 4.5:1)", () => {
    for (const colour of Object.values(BADGE_COLOURS)) expect(contrast(colour, "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });
});
