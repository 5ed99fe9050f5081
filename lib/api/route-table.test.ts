import { describe, expect, it } from "vitest";
import { compilePathTemplate, matchApiRoute } from "./route-table";

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
