import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

describe("DRIFTWATCH_QUIET_AFTER", () => {
  it.each([
    [undefined, 15 * 60_000],
    ["15m", 15 * 60_000],
    ["1h30m", 90 * 60_000],
    ["2d", 2 * 86_400_000],
    [" 30S ", 30_000],
  ])("%s is %i ms", (value, ms) => {
    expect(loadConfig({ DRIFTWATCH_QUIET_AFTER: value }).quietAfterMs).toBe(ms);
  });

  it.each(["abc", "0m", "15", "-5m", "15 minutes"])("%s stops start-up with one line naming the variable", (value) => {
    expect(() => loadConfig({ DRIFTWATCH_QUIET_AFTER: value })).toThrow(`DRIFTWATCH_QUIET_AFTER: expected a duration such as 15m, 1h or 2d (got ${JSON.stringify(value)})`);
  });
});
