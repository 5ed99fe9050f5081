import { describe, expect, it } from "vitest";
import { fixture } from "@/tests/support/replay-server";
import { cycleShapeOf } from "./versions";
import {
  eolState,
  findCycle,
  normaliseRepositoryKey,
  productForImage,
  repositoryKeysForPurl,
  resolveEolProduct,
  type PurlIdentifier,
} from "./eol";

type ProductFixture = { body: { result: { releases: { name: string; isEol: boolean; eolFrom: string | null }[] } } };
const releasesOf = (product: string) => fixture<ProductFixture>(`eol/product-${product}.json`).body.result.releases;
const purls = fixture<{ body: { result: PurlIdentifier[] } }>("eol/identifiers-purl.json").body.result;

describe("eolState", () => {
  const now = new Date("2025-08-20T12:00:00Z");
  it.each<[string | null, boolean, "ok" | "soon" | "passed"]>([
    [null, false, "ok"],
    [null, true, "passed"],
    ["2029-11-08", false, "ok"],
    ["2025-10-20", false, "ok"], // 60.5 days ahead
    ["2025-10-19", false, "soon"], // 59.5 days ahead
    ["2025-08-21", false, "soon"],
    ["2025-08-20", false, "passed"], // support ends at the start of that day
    ["2024-11-21", false, "passed"],
    ["2030-01-01", true, "passed"], // the source says it already ended
  ])("eolFrom %s, isEol %s → %s", (eolFrom, isEol, state) => {
    expect(eolState({ eolFrom, isEol }, now)).toBe(state);
  });
});

describe("cycle shapes of the recorded products", () => {
  it.each<[string, string]>([
    ["postgresql", "major"],
    ["nginx", "major.minor"],
    ["python", "major.minor"],
    ["nodejs", "major"],
    ["redis", "major.minor"],
  ])("%s → %s", (product, shape) => {
    expect(cycleShapeOf(releasesOf(product).map((r) => r.name))).toBe(shape);
  });
});

describe("findCycle", () => {
  it.each<[string, string, string | null]>([
    ["postgresql", "17.2", "17"],
    ["postgresql", "17", "17"],
    ["postgresql", "16.4-bookworm", "16"],
    ["postgresql", "9.6.24", "9.6"],
    ["postgresql", "18.0", null],
    ["nginx", "1.27.3", "1.27"],
    ["nginx", "1.27", "1.27"],
    ["nginx", "1.27.3-alpine", "1.27"],
    ["nginx", "1", null],
    ["nginx", "1.23.4", null],
    ["python", "3.12.1-slim-bookworm", "3.12"],
    ["python", "3.9", "3.9"],
    ["python", "2.7.18", "2.7"],
    ["nodejs", "22.11.0", "22"],
    ["nodejs", "v20.19.4", "20"],
    ["nodejs", "0.12.18", "0.12"],
    ["nodejs", "lts-alpine", null],
    ["redis", "7.2.4", "7.2"],
  ])("%s %s → %s", (product, version, cycle) => {
    expect(findCycle(version, releasesOf(product))?.name ?? null).toBe(cycle);
  });
});

describe("productForImage", () => {
  it.each<[string, string | null]>([
    ["docker.io/library/postgres", "postgresql"],
    ["postgres", "postgresql"],
    ["index.docker.io/library/postgres", "postgresql"],
    ["docker.io/bitnami/postgresql", "postgresql"],
    ["docker.io/library/node", "nodejs"],
    ["docker.io/argoproj/argocd", "argo-cd"],
    ["quay.io/argoproj/argocd", "argo-cd"],
    ["ghcr.io/argoproj/argocd", "argo-cd"],
    ["cgr.dev/chainguard/loki", "grafana-loki"],
    ["ghcr.io/cdalvaro/docker-salt-master", "salt"],
    ["dragonwell-registry.cn-hangzhou.cr.aliyuncs.com/dragonwell/dragonwell", "alibaba-dragonwell"],
    ["docker.io/library/nginx", null], // nginx lists no container purl: the catalog maps it
    ["ghcr.io/library/postgres", null],
    ["docker.io/library/argocd", null],
  ])("%s → %s", (key, product) => {
    expect(productForImage(key, purls)).toBe(product);
  });
});

describe("repositoryKeysForPurl", () => {
  it.each<[string, string[]]>([
    ["pkg:docker/library/postgres", ["docker.io/library/postgres"]],
    ["pkg:docker/postgres", ["docker.io/library/postgres"]],
    ["pkg:docker/smartentry/debian@dc437cc87d10", ["docker.io/smartentry/debian"]],
    ["pkg:docker/customer/dockerimage@sha256%3A244fd47e07d10?repository_url=gcr.io", ["gcr.io/customer/dockerimage"]],
    ["pkg:docker/library/postgres?repository_url=https://hub.docker.com", ["docker.io/library/postgres"]],
    ["pkg:docker/ghcr.io/org/app", ["ghcr.io/org/app"]],
    ["pkg:oci/argocd?repository_url=quay.io/argoproj", ["quay.io/argoproj/argocd"]],
    ["pkg:oci/debian@sha256%3A244fd47e07d10?repository_url=docker.io/library/debian&arch=amd64", ["docker.io/library/debian/debian", "docker.io/library/debian"]],
    ["pkg:oci/static?repository_url=gcr.io/distroless", ["gcr.io/distroless/static"]],
    ["pkg:oci/app", []],
    ["pkg:npm/express", []],
    ["not a purl", []],
  ])("%s → %j", (purl, keys) => {
    expect(repositoryKeysForPurl(purl)).toEqual(keys);
  });

  it("normalises repository keys", () => {
    expect(normaliseRepositoryKey("nginx")).toBe("docker.io/library/nginx");
    expect(normaliseRepositoryKey("registry-1.docker.io/bitnami/redis")).toBe("docker.io/bitnami/redis");
    expect(normaliseRepositoryKey("GHCR.io/org/app")).toBe("ghcr.io/org/app");
    expect(normaliseRepositoryKey("https://quay.io/argoproj/argocd/")).toBe("quay.io/argoproj/argocd");
    expect(normaliseRepositoryKey("hub.docker.com/postgres")).toBe("docker.io/library/postgres");
    expect(normaliseRepositoryKey("ghcr.io/Org/App")).toBeNull();
    expect(normaliseRepositoryKey("not an image")).toBeNull();
    expect(normaliseRepositoryKey("localhost:5000/app")).toBe("localhost:5000/app");
  });
});

describe("resolveEolProduct", () => {
  it.each<[Parameters<typeof resolveEolProduct>[0], string | null]>([
    [{ policyEol: "none", catalogEol: "nginx", purlMatch: "nginx" }, null],
    [{ policyEol: "postgresql", catalogEol: "nginx", purlMatch: "redis" }, "postgresql"],
    [{ catalogEol: "nginx", purlMatch: "redis" }, "nginx"],
    [{ policyEol: null, catalogEol: null, purlMatch: "redis" }, "redis"],
    [{ catalogEol: "none", purlMatch: "redis" }, null],
    [{}, null],
  ])("%j → %s", (input, product) => {
    expect(resolveEolProduct(input)).toBe(product);
  });
});
