import { describe, expect, it } from "vitest";
import { agentReportSchema, withoutUserinfo } from "./agent-report";

const report = (target: Record<string, unknown>) => ({ environment: "staging", target, observed_at: "2026-11-20T10:00:00Z", workloads: [] });
const source = { repository_url: "https://git.example.com/ops/deploy.git", branch: "main", paths: ["staging/compose.yaml"] };

describe("agentReportSchema: a compose_git target's source", () => {
  it("accepts a report without a source, as older agents send it", () => {
    const parsed = agentReportSchema.safeParse(report({ name: "compose@staging", kind: "compose_git" }));
    expect(parsed.success && parsed.data.target).toEqual({ name: "compose@staging", kind: "compose_git" });
  });

  it("accepts a compose_git target with its repository, branch and files", () => {
    const parsed = agentReportSchema.safeParse(report({ name: "compose@staging", kind: "compose_git", source }));
    expect(parsed.success && parsed.data.target).toEqual({ name: "compose@staging", kind: "compose_git", source });
  });

  it.each([
    ["a runtime target", { name: "docker@h", kind: "docker", source }, ["target", "source"]],
    ["no files", { name: "c", kind: "compose_git", source: { ...source, paths: [] } }, ["target", "source", "paths"]],
    ["an unknown field", { name: "c", kind: "compose_git", source: { ...source, token: "x" } }, ["target", "source"]],
    ["no branch", { name: "c", kind: "compose_git", source: { repository_url: source.repository_url, paths: source.paths } }, ["target", "source", "branch"]],
  ])("refuses a source on %s", (_label, target, path) => {
    const parsed = agentReportSchema.safeParse(report(target));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(path);
  });
});

describe("withoutUserinfo", () => {
  it.each([
    ["https://oauth2:glpat-secret@gitlab.example.com/ops/deploy.git", "https://gitlab.example.com/ops/deploy.git"],
    ["https://user:p@ss@git.example.com/a.git", "https://git.example.com/a.git"],
    ["ssh://git@git.example.com:2222/ops/deploy.git", "ssh://git.example.com:2222/ops/deploy.git"],
    ["https://git.example.com/ops/deploy.git", "https://git.example.com/ops/deploy.git"],
    ["https://git.example.com/path@v1/deploy.git", "https://git.example.com/path@v1/deploy.git"],
    ["git@github.com:acme/deploy.git", "git@github.com:acme/deploy.git"],
    ["file:///srv/git/deploy", "file:///srv/git/deploy"],
  ])("%s → %s", (url, expected) => {
    expect(withoutUserinfo(url)).toBe(expected);
  });
});
