import { describe, expect, it } from "vitest";
import { DEFAULT_HEAP_GROWTH_PERCENT, heapGrowthPercent } from "./runtime";

describe("heapGrowthPercent", () => {
  it("defaults, and takes a whole percentage from 0 (V8's own choice) to 300", () => {
    expect(heapGrowthPercent({})).toBe(DEFAULT_HEAP_GROWTH_PERCENT);
    expect(heapGrowthPercent({ DRIFTWATCH_HEAP_GROWTH_PERCENT: " " })).toBe(DEFAULT_HEAP_GROWTH_PERCENT);
    expect(heapGrowthPercent({ DRIFTWATCH_HEAP_GROWTH_PERCENT: "0" })).toBe(0);
    expect(heapGrowthPercent({ DRIFTWATCH_HEAP_GROWTH_PERCENT: "120" })).toBe(120);
  });

  it("refuses anything else with the variable's name", () => {
    for (const bad of ["-1", "301", "1.5", "lots", "1e2x"]) {
      expect(() => heapGrowthPercent({ DRIFTWATCH_HEAP_GROWTH_PERCENT: bad })).toThrow(/DRIFTWATCH_HEAP_GROWTH_PERCENT must be a whole number/);
    }
  });
});
