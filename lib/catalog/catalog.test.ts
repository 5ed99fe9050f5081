import { describe, expect, it } from "vitest";
import { RE2JS } from "re2js";
import { checkForgeReference } from "@/lib/domain/forge-hosts";
import { policySchema } from "@/lib/domain/policy";
import catalogJson from "./catalog.json";
import { catalogEntryFor, catalogPolicyFor, loadCatalog, parseCatalog } from "./index";

describe("the built-in catalog", () => {
  const { entries } = loadCatalog();

  it("covers at least 150 popular public images", () => {
    expect(entries.length).toBeGreaterThanOrEqual(150);
    const registries = new Set(entries.map((e) => e.image.split("/")[0]));
    for (const registry of ["docker.io", "ghcr.io", "quay.io", "registry.k8s.io", "lscr.io"]) expect(registries).toContain(registry);
    expect(entries.filter((e) => e.image.startsWith("docker.io/library/")).length).toBeGreaterThanOrEqual(50);
    expect(entries.filter((e) => e.image.startsWith("docker.io/bitnami/")).length).toBeGreaterThanOrEqual(20);
  });

  it("has only well-formed entries, each with something to offer", () => {
    for (const entry of entries) {
      expect(entry.github ?? entry.gitlab ?? entry.changelog ?? entry.eol ?? entry.policy, entry.image).toBeDefined();
      if (entry.github) expect(checkForgeReference("github", entry.github), entry.image).toMatchObject({ ok: true });
      if (entry.gitlab) expect(entry.gitlab.startsWith("gitlab.com/"), entry.image).toBe(true);
      if (entry.eol) expect(entry.eol, entry.image).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
      if (entry.changelog) expect(entry.changelog, entry.image).toMatch(/^https:\/\/.*\{version\}/);
      if (entry.policy?.tag_filter) expect(() => RE2JS.compile(entry.policy?.tag_filter ?? "")).not.toThrow();
      expect(policySchema.safeParse(catalogPolicyFor(entry.image)).success, entry.image).toBe(true);
    }
  });

  it("keeps the file sorted by image so that it diffs well", () => {
    const images = (catalogJson as { image: string }[]).map((e) => e.image);
    expect(images).toEqual([...images].sort());
  });

  it.each<[string, Record<string, unknown>]>([
    ["nginx", { github: "nginx/nginx", release_tag_prefix: "release-", eol: "nginx" }],
    ["docker.io/library/postgres", { changelog: "https://www.postgresql.org/docs/release/{version}/", eol: "postgresql" }],
    ["redis", { github: "redis/redis", eol: "redis" }],
    ["index.docker.io/library/node", { github: "nodejs/node", release_tag_prefix: "v", eol: "nodejs" }],
    ["docker.io/grafana/grafana", { github: "grafana/grafana", release_tag_prefix: "v", eol: "grafana" }],
    ["docker.io/gitlab/gitlab-runner", { gitlab: "gitlab.com/gitlab-org/gitlab-runner", release_tag_prefix: "v" }],
    ["quay.io/argoproj/argocd", { github: "argoproj/argo-cd", release_tag_prefix: "v", eol: "argo-cd" }],
    ["registry.k8s.io/ingress-nginx/controller", { github: "kubernetes/ingress-nginx", release_tag_prefix: "controller-v" }],
    ["docker.io/postgis/postgis", { eol: "postgresql", tag_filter: "^[0-9]+-[0-9]+\\.[0-9]+$" }],
  ])("gives %s its default policy", (image, policy) => {
    expect(catalogPolicyFor(image)).toEqual(policy);
  });

  it("knows nothing of uncatalogued images", () => {
    expect(catalogEntryFor("ghcr.io/example/private-app")).toBeNull();
    expect(catalogPolicyFor("registry.example.com/team/api")).toBeNull();
  });

  it("returns the same memoised catalog", () => {
    expect(loadCatalog()).toBe(loadCatalog());
  });
});

describe("parseCatalog", () => {
  it.each<[string, unknown]>([
    ["unknown keys", [{ image: "docker.io/library/nginx", github: "nginx/nginx", homepage: "https://nginx.org" }]],
    ["a repository that is not owner/repo", [{ image: "docker.io/library/nginx", github: "github.com/nginx/nginx" }]],
    ["a GitLab project off gitlab.com", [{ image: "docker.io/library/nginx", gitlab: "git.example.org/g/p" }]],
    ["an upper-case eol id", [{ image: "docker.io/library/nginx", eol: "Nginx" }]],
    ["an official image without library/", [{ image: "docker.io/nginx", eol: "nginx" }]],
    ["an image key with a tag", [{ image: "docker.io/library/nginx:1.27", eol: "nginx" }]],
    ["an image key without a registry", [{ image: "library/nginx", eol: "nginx" }]],
    ["an upper-case image key", [{ image: "ghcr.io/Org/App", eol: "nginx" }]],
    ["a changelog without {version}", [{ image: "docker.io/library/nginx", changelog: "https://nginx.org/en/CHANGES" }]],
    ["an invalid tag_filter", [{ image: "docker.io/library/nginx", policy: { tag_filter: "(?<=a)b" } }]],
    ["a policy field the catalog does not set", [{ image: "docker.io/library/nginx", policy: { pin_major: 1 } }]],
    ["duplicate images", [{ image: "docker.io/library/nginx", eol: "nginx" }, { image: "docker.io/library/nginx", eol: "nginx" }]],
  ])("rejects %s", (_what, data) => {
    expect(() => parseCatalog(data)).toThrow(/Invalid built-in catalog/);
  });
});
