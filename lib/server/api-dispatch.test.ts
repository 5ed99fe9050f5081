import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Operation } from "@/lib/api/operation";
import { ops } from "@/lib/api/operations";
import { matchDirectRoute, routeFileOf } from "./api-dispatch";

describe("the direct API route table", () => {
  it("finds every operation's route file, which exports the operation's method", () => {
    for (const op of Object.values(ops) as Operation[]) {
      const file = routeFileOf(op.path);
      expect(existsSync(file), `${op.id}: ${file}`).toBe(true);
      expect(readFileSync(file, "utf8"), `${op.id} in ${file}`).toMatch(new RegExp(`export const ${op.method}\\b`));
    }
  });

  it("maps a path template to the App Router's file", () => {
    expect(routeFileOf("/api/v1/services/{name}/badge")).toMatch(/app\/api\/v1\/services\/\[name\]\/badge\/route\.ts$/);
    expect(routeFileOf("/api/v1/openapi.yaml")).toMatch(/app\/api\/v1\/openapi\.yaml\/route\.ts$/);
  });

  it("matches exact paths, decodes parameters, and answers HEAD with GET's handler", () => {
    const m = matchDirectRoute("/api/v1/services/caf%C3%A9%2Fapi", "GET");
    expect(m?.params).toEqual({ name: "café/api" });
    expect(m?.handlerMethod).toBe("GET");
    expect(matchDirectRoute("/api/v1/drifts", "HEAD")?.handlerMethod).toBe("GET");
    expect(matchDirectRoute("/api/v1/agent/report", "POST")?.route.file).toMatch(/agent\/report\/route\.ts$/);
  });

  it("leaves to Next.js what it answers itself: trailing slashes, OPTIONS, unknown paths and methods, bad escapes", () => {
    expect(matchDirectRoute("/api/v1/drifts/", "GET")).toBeNull();
    expect(matchDirectRoute("/api/v1/drifts", "OPTIONS")).toBeNull();
    expect(matchDirectRoute("/api/v1/drifts", "DELETE")).toBeNull();
    expect(matchDirectRoute("/api/v1/nothing", "GET")).toBeNull();
    expect(matchDirectRoute("/api/v1/services/%E0%A4%A", "GET")).toBeNull();
    expect(matchDirectRoute("/api/v1/openapi.yamlx", "GET")).toBeNull();
  });
});
