import { describe, expect, it } from "vitest";
import { cssString } from "./css-string";

describe("cssString", () => {
  it.each([
    ["acme · November 2026", '"acme · November 2026"'],
    ['say "hi"', '"say \\22 hi\\22 "'],
    ["a\\b", '"a\\5c b"'],
    ["</style><script>", '"\\3c /style\\3e \\3c script\\3e "'],
    ["two\nlines", '"two\\a lines"'],
  ])("%s", (text, css) => {
    expect(cssString(text)).toBe(css);
  });
});
