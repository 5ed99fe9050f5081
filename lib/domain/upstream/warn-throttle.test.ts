import { describe, expect, it } from "vitest";
import { HostWarnings } from "./warn-throttle";

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 27, 10, minutes));

describe("HostWarnings", () => {
  it("warns once per host per hour, each host on its own clock", () => {
    const warnings = new HostWarnings();
    expect([
      warnings.shouldWarn("registry-1.docker.io", at(0)),
      warnings.shouldWarn("registry-1.docker.io", at(1)), // the next repository of the same host
      warnings.shouldWarn("quay.io", at(2)),
      warnings.shouldWarn("Registry-1.docker.io", at(59)),
      warnings.shouldWarn("registry-1.docker.io", at(60)),
      warnings.shouldWarn("quay.io", at(61)),
    ]).toEqual([true, false, true, false, true, false]);
  });

  it("warns at once after the host recovered and fails again", () => {
    const warnings = new HostWarnings();
    expect(warnings.shouldWarn("quay.io", at(0))).toBe(true);
    warnings.recovered("quay.io");
    expect(warnings.shouldWarn("quay.io", at(5))).toBe(true);
  });
});
