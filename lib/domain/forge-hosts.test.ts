import { describe, expect, it } from "vitest";
import { allowedGitlabHosts, checkForgeReference, forgeFromSourceLabel, type ForgeKind } from "./forge-hosts";

const CONFIGURED = { gitlabUrl: "https://git.example.org:8443" };

describe("checkForgeReference", () => {
  it.each<[ForgeKind, string, { gitlabUrl?: string }, string | null]>([
    ["github", "nginx/nginx", {}, "nginx/nginx"],
    ["github", "traefik/traefik", CONFIGURED, "traefik/traefik"],
    ["github", "grafana/grafana.git-mirror", {}, "grafana/grafana.git-mirror"],
    ["gitlab", "gitlab.com/gitlab-org/gitlab-runner", {}, "gitlab.com/gitlab-org/gitlab-runner"],
    ["gitlab", "GitLab.com/gitlab-org/charts/gitlab", {}, "gitlab.com/gitlab-org/charts/gitlab"],
    ["gitlab", "git.example.org:8443/platform/api", CONFIGURED, "git.example.org:8443/platform/api"],
    ["gitlab", "git.example.org/platform/api", { gitlabUrl: "https://git.example.org" }, "git.example.org/platform/api"],
    ["gitlab", "git.example.org:443/platform/api", { gitlabUrl: "https://git.example.org" }, "git.example.org/platform/api"],
    ["gitlab", "127.0.0.1:8929/group/project", { gitlabUrl: "http://127.0.0.1:8929" }, "127.0.0.1:8929/group/project"],
  ])("%s %s is allowed", (kind, value, opts, repository) => {
    expect(checkForgeReference(kind, value, opts)).toEqual({ ok: true, repository });
  });

  it.each<[ForgeKind, string, { gitlabUrl?: string }]>([
    ["github", "github.com/nginx/nginx", {}],
    ["github", "evil.example/owner/repo", {}],
    ["github", "127.0.0.1:9999/owner/repo", {}],
    ["github", "https://github.com/nginx/nginx", {}],
    ["github", "nginx", {}],
    ["github", "owner/..", {}],
    ["github", "../repo", {}],
    ["github", "owner/repo?x=1", {}],
    ["gitlab", "evil.example/group/project", {}],
    ["gitlab", "evil.example/group/project", CONFIGURED],
    ["gitlab", "git.example.org/platform/api", CONFIGURED], // wrong port
    ["gitlab", "git.example.org:9443/platform/api", CONFIGURED],
    ["gitlab", "gitlab.com.evil.example/group/project", {}],
    ["gitlab", "gitlab.com@evil.example/group/project", {}],
    ["gitlab", "gitlab.com/only-group", {}],
    ["gitlab", "gitlab.com/group/../project", {}],
    ["gitlab", "git.example.org:8443/platform/api", {}], // not configured
    ["gitlab", "https://gitlab.com/group/project", {}],
  ])("%s %s is refused", (kind, value, opts) => {
    const check = checkForgeReference(kind, value, opts);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.error.length).toBeGreaterThan(0);
  });

  it("names the allowed hosts", () => {
    expect(allowedGitlabHosts({})).toEqual(["gitlab.com"]);
    expect(allowedGitlabHosts(CONFIGURED)).toEqual(["gitlab.com", "git.example.org:8443"]);
    expect(allowedGitlabHosts({ gitlabUrl: "https://gitlab.com" })).toEqual(["gitlab.com"]);
  });
});

describe("forgeFromSourceLabel", () => {
  it.each<[string, { gitlabUrl?: string }, { kind: ForgeKind; repository: string } | null]>([
    ["https://github.com/traefik/traefik", {}, { kind: "github", repository: "traefik/traefik" }],
    ["https://github.com/grafana/grafana.git", {}, { kind: "github", repository: "grafana/grafana" }],
    ["https://github.com/grafana/grafana/", {}, { kind: "github", repository: "grafana/grafana" }],
    ["http://github.com/grafana/grafana", {}, { kind: "github", repository: "grafana/grafana" }],
    ["git+https://github.com/open-telemetry/opentelemetry-collector-releases.git", {}, { kind: "github", repository: "open-telemetry/opentelemetry-collector-releases" }],
    ["https://github.com/immich-app/immich/tree/main/server", {}, { kind: "github", repository: "immich-app/immich" }],
    ["git@github.com:goauthentik/authentik.git", {}, { kind: "github", repository: "goauthentik/authentik" }],
    ["ssh://git@github.com/goauthentik/authentik", {}, { kind: "github", repository: "goauthentik/authentik" }],
    ["https://www.github.com/home-assistant/core", {}, { kind: "github", repository: "home-assistant/core" }],
    ["https://gitlab.com/gitlab-org/gitlab-runner", {}, { kind: "gitlab", repository: "gitlab.com/gitlab-org/gitlab-runner" }],
    ["https://gitlab.com/gitlab-org/charts/gitlab.git", {}, { kind: "gitlab", repository: "gitlab.com/gitlab-org/charts/gitlab" }],
    ["https://gitlab.com/gitlab-org/gitlab-runner/-/tree/main", {}, { kind: "gitlab", repository: "gitlab.com/gitlab-org/gitlab-runner" }],
    ["git@gitlab.com:fdroid/fdroidserver.git", {}, { kind: "gitlab", repository: "gitlab.com/fdroid/fdroidserver" }],
    ["https://git.example.org:8443/platform/payments/api", CONFIGURED, { kind: "gitlab", repository: "git.example.org:8443/platform/payments/api" }],
    ["git@git.example.org:platform/api.git", CONFIGURED, { kind: "gitlab", repository: "git.example.org:8443/platform/api" }],
    ["https://example.com/gitlab/platform/api", { gitlabUrl: "https://example.com/gitlab" }, { kind: "gitlab", repository: "example.com/platform/api" }],
    // Every other host gives null: a label never names a host to call.
    ["https://git.example.org:8443/platform/api", {}, null],
    ["https://git.example.org:9999/platform/api", CONFIGURED, null],
    ["https://evil.example/owner/repo", CONFIGURED, null],
    ["https://github.com.evil.example/owner/repo", {}, null],
    ["https://gitlab.com.evil.example/group/project", {}, null],
    ["https://codeberg.org/forgejo/forgejo", {}, null],
    ["https://bitbucket.org/atlassian/pipelines", {}, null],
    ["http://127.0.0.1:9999/group/project", {}, null],
    ["https://github.com/only-owner", {}, null],
    ["https://gitlab.com/only-group", {}, null],
    ["file:///etc/passwd", {}, null],
    ["not a url", {}, null],
    ["", {}, null],
  ])("%s → %j", (label, opts, expected) => {
    expect(forgeFromSourceLabel(label, opts)).toEqual(expected);
  });
});
