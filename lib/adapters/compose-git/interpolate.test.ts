import { describe, expect, it } from "vitest";
import { interpolate, parseDotEnv } from "./interpolate";

const vars = { TAG: "1.27.3", EMPTY: "", REGISTRY: "ghcr.io/acme", FLAVOUR: "alpine" };

describe("interpolate", () => {
  it.each([
    ["nginx:${TAG}", "nginx:1.27.3"],
    ["nginx:$TAG", "nginx:1.27.3"],
    ["${REGISTRY}/api:${TAG}-${FLAVOUR}", "ghcr.io/acme/api:1.27.3-alpine"],
    ["nginx:${MISSING:-1.26}", "nginx:1.26"],
    ["nginx:${EMPTY:-1.26}", "nginx:1.26"],
    ["nginx:${EMPTY-1.26}", "nginx:"],
    ["nginx:${MISSING-1.26}", "nginx:1.26"],
    ["nginx:${MISSING:-${TAG}}", "nginx:1.27.3"],
    ["nginx:${MISSING:-${ALSO_MISSING:-stable}}", "nginx:stable"],
    ["${TAG:+pinned}", "pinned"],
    ["${EMPTY:+pinned}", ""],
    ["${EMPTY+set}", "set"],
    ["price $$5", "price $5"],
    ["$${TAG}", "${TAG}"],
    ["no variables", "no variables"],
  ])("%s → %s", (input, expected) => {
    const r = interpolate(input, vars);
    expect(r).toMatchObject({ value: expected, errors: [] });
  });

  it("warns about an unset variable and uses a blank", () => {
    expect(interpolate("nginx:${NOPE}", vars)).toEqual({
      value: "nginx:",
      errors: [],
      warnings: ['The "NOPE" variable is not set. Defaulting to a blank string.'],
    });
  });

  it.each([
    ["${NOPE:?set the image tag}", 'Required variable "NOPE" is missing a value: set the image tag.'],
    ["${EMPTY:?}", 'Required variable "EMPTY" is missing a value.'],
    ["${EMPTY?}", null],
  ])("required %s", (input, error) => {
    expect(interpolate(input, vars).errors).toEqual(error ? [error] : []);
  });

  it.each(["nginx:${TAG", "nginx:$1", "nginx:${TAG!x}", "${}"])("rejects the invalid format %s", (input) => {
    expect(interpolate(input, vars).errors).toHaveLength(1);
  });
});

describe("parseDotEnv", () => {
  it("reads the forms Compose accepts", () => {
    const text = [
      "# image versions",
      "TAG=1.27.3",
      "export REGISTRY=ghcr.io/acme",
      "FLAVOUR=alpine   # inline comment",
      "LITERAL='${TAG} stays'",
      'QUOTED="v${TAG}\\n"',
      'MULTI="line one',
      'line two"',
      "REF=${REGISTRY}/api",
      'ESCAPED="cost \\$5 \\"quoted\\""',
      "",
      "EMPTY=",
    ].join("\n");
    expect(parseDotEnv(text)).toEqual({
      vars: {
        TAG: "1.27.3",
        REGISTRY: "ghcr.io/acme",
        FLAVOUR: "alpine",
        LITERAL: "${TAG} stays",
        QUOTED: "v1.27.3\n",
        MULTI: "line one\nline two",
        REF: "ghcr.io/acme/api",
        ESCAPED: 'cost $5 "quoted"',
        EMPTY: "",
      },
      errors: [],
    });
  });

  it("lets outer variables win inside references, and reports bad lines", () => {
    expect(parseDotEnv("A=${B}\nnot a line\n", { B: "outer" })).toEqual({ vars: { A: "outer" }, errors: [".env line 2: expected KEY=value."] });
  });
});
