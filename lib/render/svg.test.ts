import { describe, expect, it } from "vitest";
import { attrs, escapeXml, num, plural, safeId } from "./svg";

describe("escapeXml", () => {
  it.each([
    ["plain", "plain"],
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    ["R&D", "R&amp;D"],
    [`say "hi" it's`, "say &quot;hi&quot; it&#39;s"],
    ["&amp;", "&amp;amp;"],
    ["bell\u0007 and nul\u0000", "bell and nul"],
    ["tab\tnewline\n", "tab\tnewline\n"],
    ["lone \uD800 surrogate", "lone  surrogate"],
    ["emoji 🚀 stays", "emoji 🚀 stays"],
  ])("%j", (input, expected) => {
    expect(escapeXml(input)).toBe(expected);
  });
});

describe("num", () => {
  it.each([
    [1, "1"],
    [1.005, "1"],
    [1.236, "1.24"],
    [-0.001, "0"],
    [Number.NaN, "0"],
    [Number.POSITIVE_INFINITY, "0"],
    [720, "720"],
  ])("%d → %s", (value, expected) => {
    expect(num(value)).toBe(expected);
  });
});

describe("attrs", () => {
  it("escapes values, rounds numbers and skips undefined", () => {
    expect(attrs({ class: `a"b`, x: 1.234, y: undefined, title: "<&>" })).toBe(' class="a&quot;b" x="1.23" title="&lt;&amp;&gt;"');
  });
});

describe("safeId", () => {
  it.each([
    ["dw-arrivals", "dw-arrivals"],
    ["web timeline", "web-timeline"],
    ['"><script>', "c----script-"],
    ["1st", "c-1st"],
  ])("%j → %s", (raw, expected) => {
    expect(safeId(raw)).toBe(expected);
  });
});

describe("plural", () => {
  it("counts in words", () => {
    expect([plural(0, "version"), plural(1, "version"), plural(4, "version")]).toEqual(["0 versions", "1 version", "4 versions"]);
  });
});
