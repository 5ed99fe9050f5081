import { describe, expect, it } from "vitest";
import { stepBefore } from "./pipeline";

const ENVS = [
  { name: "dev", position: 10 }, { name: "staging", position: 20 }, { name: "prod-eu", position: 30 }, { name: "prod-us", position: 30 }, { name: "dr", position: 40 },
];

describe("stepBefore", () => {
  it.each<[string, string[] | null]>([
    ["dev", []],
    ["staging", ["dev"]],
    ["prod-eu", ["staging"]],
    ["prod-us", ["staging"]],
    ["dr", ["prod-eu", "prod-us"]],
    ["nowhere", null],
  ])("%s", (name, expected) => {
    const step = stepBefore(ENVS, name);
    expect(step === null ? null : step.previous.map((e) => e.name)).toEqual(expected);
  });
});
