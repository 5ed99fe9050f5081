import { describe, expect, it } from "vitest";
import { ops } from "./operations";
import { compilePathTemplate, findOperation, matchApiRoute } from "./route-table";

describe("compilePathTemplate", () => {
  it("captures named segments in order and matches exactly", () => {
    const { pattern, names } = compilePathTemplate("/api/v1/services/{name}/environments/{env}");
    expect(names).toEqual(["name", "env"]);
    expect(pattern.exec("/api/v1/services/web/environments/prod")?.slice(1)).toEqual(["web", "prod"]);
    expect(pattern.test("/api/v1/services/web/environments/prod/")).toBe(false);
    expect(pattern.test("/api/v1/services/a/b/environments/prod")).toBe(false);
  });

  it("accepts one trailing slash when asked, and `{rest*}` takes the rest", () => {
    expect(compilePathTemplate("/api/v1/matrix", { trailingSlash: true }).pattern.test("/api/v1/matrix/")).toBe(true);
    expect(compilePathTemplate("/api/auth/{rest*}").pattern.test("/api/auth/callback/credentials")).toBe(true);
  });

  it("escapes literal segments", () => {
    const { pattern } = compilePathTemplate("/api/v1/openapi.json");
    expect(pattern.test("/api/v1/openapi.json")).toBe(true);
    expect(pattern.test("/api/v1/openapiXjson")).toBe(false);
  });
});

describe("matchApiRoute", () => {
  it("knows paths, methods and HEAD for GET routes", () => {
    expect(matchApiRoute("/api/v1/matrix", "GET")).toEqual({ kind: "ok" });
    expect(matchApiRoute("/api/v1/matrix/", "HEAD")).toEqual({ kind: "ok" });
    expect(matchApiRoute("/api/v1/nothing-here", "GET")).toEqual({ kind: "not_found" });
    const wrong = matchApiRoute("/api/v1/matrix", "DELETE");
    expect(wrong.kind).toBe("method");
    expect(wrong.kind === "method" && wrong.allowed).toContain("GET");
  });
});

describe("findOperation", () => {
  it("finds the operation at exactly its path, decodes parameters, and answers HEAD with GET's", () => {
    const m = findOperation("/api/v1/services/caf%C3%A9%2Fapi", "GET");
    expect(m?.op.id).toBe(ops.getService.id);
    expect(m?.params).toEqual({ name: "café/api" });
    expect(findOperation("/api/v1/drifts", "HEAD")?.op).toBe(ops.listDrifts);
    expect(findOperation("/api/v1/agent/report", "POST")?.op).toBe(ops.agentReport);
  });

  it("leaves to Next.js what it answers itself: trailing slashes, OPTIONS, unknown paths and methods, bad escapes", () => {
    expect(findOperation("/api/v1/drifts/", "GET")).toBeNull();
    expect(findOperation("/api/v1/drifts", "OPTIONS")).toBeNull();
    expect(findOperation("/api/v1/drifts", "DELETE")).toBeNull();
    expect(findOperation("/api/v1/nothing", "GET")).toBeNull();
    expect(findOperation("/api/v1/services/%E0%A4%A", "GET")).toBeNull();
    expect(findOperation("/api/v1/openapi.yamlx", "GET")).toBeNull();
    expect(findOperation("/api/auth/session", "GET")).toBeNull();
  });
});
