import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { checkAckInput } from "./create";

describe("checkAckInput", () => {
  it.each([
    [{ service: "web", kind: "release", until_version: "1.28" }],
    [{ service: "web", kind: "release", duration: "7d" }],
    [{ service: "web", kind: "release", until_version: "1.28.0", duration: "30d", environment: "production" }],
    [{ service: "web", kind: "drift", duration: "72h" }],
    [{ service: "web", kind: "release", skip_version: "2.0.0", environment: "production" }],
  ] as const)("accepts %j", (input) => {
    expect(() => checkAckInput(input)).not.toThrow();
  });

  it.each([
    [{ service: "web", kind: "drift" }, "/duration"],
    [{ service: "web", kind: "drift", duration: "1h", until_version: "2.0.0" }, "/until_version"],
    [{ service: "web", kind: "release" }, "/until_version"],
    [{ service: "web", kind: "release", until_version: "latest" }, "/until_version"],
    [{ service: "web", kind: "release", until_version: "alpine" }, "/until_version"],
    [{ service: "web", kind: "release", skip_version: "latest" }, "/skip_version"],
    [{ service: "web", kind: "release", skip_version: "2.0.0", until_version: "2.0.0" }, "/skip_version"],
    [{ service: "web", kind: "drift", duration: "1h", skip_version: "2.0.0" }, "/skip_version"],
  ] as const)("refuses %j at %s", (input, pointer) => {
    let error: unknown;
    try {
      checkAckInput(input);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("invalid_input");
    expect((error as AppError).errors?.[0]?.pointer).toBe(pointer);
  });
});
