import { describe, expect, it } from "vitest";
import { paperForLanguages, parsePaper } from "./paper";

describe("paperForLanguages", () => {
  it.each([
    ["en-US,en;q=0.9", "letter"],
    ["en-GB,en;q=0.9", "a4"],
    ["fr-CA", "letter"],
    ["es-MX,es;q=0.8", "letter"],
    ["de-DE,de;q=0.9,en-US;q=0.5", "a4"],
    ["en,en-US;q=0.9", "letter"],
    ["zh-Hant-TW", "a4"],
    ["es-419", "a4"],
    ["en", "a4"],
    ["", "a4"],
    [null, "a4"],
  ] as const)("%s → %s", (header, paper) => {
    expect(paperForLanguages(header)).toBe(paper);
  });
});

describe("parsePaper", () => {
  it.each([["letter", "letter"], ["LETTER", "letter"], ["a4", "a4"], ["legal", "a4"], [null, "a4"]] as const)("%s → %s", (raw, paper) => {
    expect(parsePaper(raw)).toBe(paper);
  });
});
