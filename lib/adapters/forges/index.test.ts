// The allow-list end to end: every way a host can reach the forge clients
// (policy values, image labels, redirects) is refused before a foreign host
// sees a single request.
import { describe, expect, it } from "vitest";
import { forgeFromSourceLabel } from "@/lib/domain/forge-hosts";
import { caught, replayServersPerTest } from "@/tests/support/replay-helpers";
import { changelogUrl, createForgeClients, releaseForVersion, releaseTagCandidates, type ForgeRelease } from "./index";

const serve = replayServersPerTest();

const anything = [{ method: "*", path: /.*/, reply: { status: 200, body: [] } }];

/** GitHub API, gitlab.com, the configured GitLab, and a foreign host that must never be called. */
async function world() {
  const github = await serve(anything);
  const gitlabCom = await serve(anything);
  const ownGitlab = await serve(anything);
  const foreign = await serve(anything);
  const clients = createForgeClients({
    githubApiUrl: github.url,
    githubToken: "ghp_secret",
    gitlabUrl: ownGitlab.url,
    gitlabToken: "glpat-secret",
    gitlabComUrl: gitlabCom.url,
  });
  const allowedCount = () => github.count() + gitlabCom.count() + ownGitlab.count();
  return { github, gitlabCom, ownGitlab, foreign, clients, allowedCount, gitlabUrl: ownGitlab.url };
}

describe("createForgeClients: hosts from policy values", () => {
  it("calls the configured GitHub API and the allowed GitLab hosts", async () => {
    const w = await world();
    await w.clients.listReleases({ kind: "github", repository: "traefik/traefik" });
    await w.clients.listReleases({ kind: "gitlab", repository: "gitlab.com/gitlab-org/gitlab-runner" });
    await w.clients.listReleases({ kind: "gitlab", repository: `${new URL(w.ownGitlab.url).host}/platform/api` });
    expect([w.github.count(), w.gitlabCom.count(), w.ownGitlab.count(), w.foreign.count()]).toEqual([1, 1, 1, 0]);
    expect(w.ownGitlab.requests[0]?.headers["private-token"]).toBe("glpat-secret");
    expect(w.gitlabCom.requests[0]?.headers["private-token"]).toBeUndefined();
  });

  it.each<["github" | "gitlab", (foreignHost: string) => string]>([
    ["gitlab", (h) => `${h}/group/project`],
    ["gitlab", (h) => `${h.replace("127.0.0.1", "localhost")}/group/project`],
    ["gitlab", () => "evil.example/group/project"],
    ["gitlab", () => "gitlab.com.evil.example/group/project"],
    ["github", (h) => `${h}/owner/repo`],
    ["github", () => "github.com/owner/repo"],
    ["github", () => "owner/repo/../../other"],
  ])("refuses %s value naming a foreign host with 422, before any request", async (kind, value) => {
    const w = await world();
    const repository = value(new URL(w.foreign.url).host);

    const err = await caught(w.clients.listReleases({ kind, repository }));

    expect(err.code).toBe("invalid_input");
    expect(err.errors?.[0]?.pointer).toBe(`/policy/${kind}`);
    expect(w.foreign.count()).toBe(0);
    expect(w.allowedCount()).toBe(0);
  });
});

describe("createForgeClients: hosts from image labels", () => {
  it("maps labels on allowed hosts and gives no reference for any other host", async () => {
    const w = await world();
    const foreignHost = new URL(w.foreign.url).host;
    const labels = [
      `http://${foreignHost}/group/project`,
      `https://${foreignHost}/owner/repo.git`,
      "https://codeberg.org/forgejo/forgejo",
      "https://github.com.evil.example/owner/repo",
      "https://github.com/traefik/traefik",
      "https://gitlab.com/gitlab-org/gitlab-runner",
      `${w.ownGitlab.url}/platform/api`,
    ];
    for (const label of labels) {
      const reference = forgeFromSourceLabel(label, { gitlabUrl: w.gitlabUrl });
      if (reference) await w.clients.listReleases(reference);
    }
    expect(w.foreign.count()).toBe(0);
    expect([w.github.count(), w.gitlabCom.count(), w.ownGitlab.count()]).toEqual([1, 1, 1]);
  });
});

describe("createForgeClients: redirects", () => {
  it.each<["github" | "gitlab-com" | "gitlab-own"]>([["github"], ["gitlab-com"], ["gitlab-own"]])(
    "refuses a redirect from %s to a foreign host",
    async (which) => {
      const w = await world();
      const redirect = [{ method: "*", path: /.*/, reply: { status: 301, headers: { location: `${w.foreign.url}/api/v4/projects/x/releases` } } }];
      const server = which === "github" ? w.github : which === "gitlab-com" ? w.gitlabCom : w.ownGitlab;
      server.setRoutes(redirect);
      const input =
        which === "github"
          ? { kind: "github" as const, repository: "traefik/traefik" }
          : which === "gitlab-com"
            ? { kind: "gitlab" as const, repository: "gitlab.com/gitlab-org/gitlab-runner" }
            : { kind: "gitlab" as const, repository: `${new URL(w.ownGitlab.url).host}/platform/api` };

      const err = await caught(w.clients.listReleases(input));

      expect(err.code).toBe("forge_unavailable");
      expect(server.count()).toBe(1);
      expect(w.foreign.count()).toBe(0);
    },
  );

  it("follows at most three same-host redirects", async () => {
    const w = await world();
    w.github.setRoutes([{ path: /.*/, reply: (req) => ({ status: 307, headers: { location: `${req.path.split("?")[0]}x?per_page=100` } }) }]);
    const err = await caught(w.clients.listReleases({ kind: "github", repository: "traefik/traefik" }));
    expect(err.code).toBe("forge_unavailable");
    expect(w.github.count()).toBe(4);
  });
});

describe("releaseForVersion", () => {
  const rel = (tag: string): ForgeRelease => ({ tag, name: tag, publishedAt: null, url: `https://example.test/${tag}`, prerelease: false });
  const nginx = ["release-1.27.3", "release-1.27.2", "release-1.26.2"].map(rel);
  const node = ["v22.11.0", "v20.18.0"].map(rel);
  const redis = ["7.4.1", "7.2.6"].map(rel);
  const jenkins = ["jenkins-2.479", "jenkins-2.478"].map(rel);

  it.each<[string, ForgeRelease[], string | undefined, string | null]>([
    ["1.27.3", nginx, "release-", "release-1.27.3"],
    ["1.27.3-alpine", nginx, "release-", "release-1.27.3"],
    ["1.27.4", nginx, "release-", null],
    ["1.27.3", nginx, undefined, null],
    ["22.11.0", node, "v", "v22.11.0"],
    ["22.11.0", node, undefined, "v22.11.0"],
    ["v22.11.0", node, undefined, "v22.11.0"],
    ["20.18.0-bookworm-slim", node, undefined, "v20.18.0"],
    ["7.4.1", redis, undefined, "7.4.1"],
    ["7.4.1-alpine3.20", redis, undefined, "7.4.1"],
    ["2.479", jenkins, "jenkins-", "jenkins-2.479"],
    ["7.4", redis, undefined, null],
  ])("%s with prefix %s → %s", (version, releases, prefix, tag) => {
    expect(releaseForVersion(version, releases, { prefix })?.tag ?? null).toBe(tag);
  });

  it("does not take a prerelease's notes for the final release", () => {
    expect(releaseForVersion("3.0.0-rc1", ["3.0.0"].map(rel))).toBeNull();
    expect(releaseTagCandidates("3.0.0-rc1", "v")).toEqual(["v3.0.0-rc1", "3.0.0-rc1"]);
  });

  it("matches tags case-insensitively as a last resort", () => {
    expect(releaseForVersion("1.2.3", ["V1.2.3"].map(rel))?.tag).toBe("V1.2.3");
  });
});

describe("changelogUrl", () => {
  it.each<[string, string, string]>([
    ["https://www.postgresql.org/docs/release/{version}/", "17.2", "https://www.postgresql.org/docs/release/17.2/"],
    ["https://example.test/notes?v={version}#{version}", "1.0.0+build/1", "https://example.test/notes?v=1.0.0%2Bbuild%2F1#1.0.0%2Bbuild%2F1"],
    ["https://example.test/static", "1.0", "https://example.test/static"],
  ])("%s with %s", (template, version, url) => {
    expect(changelogUrl(template, version)).toBe(url);
  });
});
