import { describe, expect, it } from "vitest";
import { agentReportSchema } from "./agent-report";
import { chartKeyOf, chartServiceName, repositoryLabel, chartVersionOfOciTag, isChartKey, parseChartKey, parseChartRepository, serviceKindOf } from "./charts";

describe("chart keys", () => {
  it.each([
    ["a classic repository", "https://kubernetes.github.io/ingress-nginx", "ingress-nginx", "https://kubernetes.github.io/ingress-nginx#ingress-nginx"],
    ["a trailing slash", "https://charts.jetstack.io/", "cert-manager", "https://charts.jetstack.io#cert-manager"],
    ["plain http (allowed only for configured hosts, later)", "http://127.0.0.1:8080/charts", "app", "http://127.0.0.1:8080/charts#app"],
    ["an OCI namespace (Docker Hub by its canonical name)", "oci://registry-1.docker.io/bitnamicharts", "redis", "oci://docker.io/bitnamicharts/redis"],
    ["an OCI reference that is the chart itself", "oci://ghcr.io/acme/charts/shop-api", "shop-api", "oci://ghcr.io/acme/charts/shop-api"],
    ["an OCI host alone", "oci://127.0.0.1:5000", "app", "oci://127.0.0.1:5000/app"],
    ["not a URL", "charts.example.com", "app", null],
    ["credentials in the URL", "https://user:pw@charts.example.com", "app", null],
    ["a query", "https://charts.example.com/?x=1", "app", null],
    ["a bad chart name", "https://charts.example.com", "../etc", null],
    ["another scheme", "ftp://charts.example.com", "app", null],
  ])("%s", (_, repository, chart, expected) => {
    expect(chartKeyOf(repository, chart)).toBe(expected);
  });

  it.each([
    ["https://kubernetes.github.io/ingress-nginx#ingress-nginx", { kind: "index", key: "https://kubernetes.github.io/ingress-nginx#ingress-nginx", host: "kubernetes.github.io", url: "https://kubernetes.github.io/ingress-nginx", chart: "ingress-nginx" }],
    ["oci://ghcr.io/acme/charts/shop-api", { kind: "oci", key: "oci://ghcr.io/acme/charts/shop-api", host: "ghcr.io", path: "acme/charts/shop-api" }],
    ["oci://ghcr.io", null],
    ["https://charts.example.com", null],
    ["chart:ingress-nginx", null],
    ["docker.io/library/nginx", null],
  ])("parses %s", (key, expected) => {
    expect(parseChartKey(key)).toEqual(expected);
  });

  it("tells chart keys from image keys", () => {
    expect(["oci://ghcr.io/a/b", "https://x.io#c", "chart:c", "docker.io/library/nginx", "ghcr.io/acme/api"].map(isChartKey)).toEqual([true, true, true, false, false]);
  });

  it("reads a policy's repository", () => {
    expect(parseChartRepository("oci://GHCR.io/acme")).toEqual({ kind: "oci", host: "ghcr.io", path: "acme" });
    expect(parseChartRepository("oci://ghcr.io/Acme")).toBeNull();
    // The index's own address names the folder it sits in.
    expect(parseChartRepository("https://charts.bitnami.com/bitnami/index.yaml")).toEqual({ kind: "index", host: "charts.bitnami.com", url: "https://charts.bitnami.com/bitnami" });
    expect(chartKeyOf("https://charts.jetstack.io/index.yaml", "cert-manager")).toBe("https://charts.jetstack.io#cert-manager");
  });

  it("turns Helm's OCI tag spelling of build metadata back into SemVer", () => {
    expect(chartVersionOfOciTag("1.2.3_build.4")).toBe("1.2.3+build.4");
    expect(chartVersionOfOciTag("1.2.3")).toBe("1.2.3");
  });
});

describe("helm_release workloads in a report", () => {
  const base = { service: "ingress-nginx", container: "chart", main: true, image: "ingress-nginx:4.11.2", digest: null, platform_digest: null, platform: null, since: "2026-11-10T14:00:00.250Z" };
  const chart = { name: "ingress-nginx", version: "4.11.2", app_version: "1.11.2", namespace: "default", release: "ingress-nginx", revision: 3 };
  const report = (workloads: unknown[]) => agentReportSchema.safeParse({ environment: "prod", target: { name: "k", kind: "kubernetes" }, observed_at: "2026-11-27T10:00:00Z", workloads });

  it.each([
    ["an image row as before", [base], true],
    ["an image row saying so", [{ ...base, kind: "image" }], true],
    ["a release with its chart", [{ ...base, kind: "helm_release", chart }], true],
    ["a release naming its repository", [{ ...base, kind: "helm_release", chart: { ...chart, repository: "oci://ghcr.io/acme/charts" } }], true],
    ["a release without its chart", [{ ...base, kind: "helm_release" }], false],
    ["a chart on an image row", [{ ...base, chart }], false],
    ["a chart with an unknown field", [{ ...base, kind: "helm_release", chart: { ...chart, extra: 1 } }], false],
    ["an unknown kind", [{ ...base, kind: "lambda" }], false],
    ["an image row named like a release's service", [{ ...base, service: "chart:ingress-nginx" }], false],
    ["a release already named as its service", [{ ...base, service: "chart:ingress-nginx", kind: "helm_release", chart }], true],
  ])("%s", (_, workloads, ok) => {
    expect(report(workloads).success).toBe(ok);
  });
});

describe("a release's own service", () => {
  it.each([
    ["redis", "chart:redis"],
    ["shop-api-chart", "chart:shop-api-chart"],
    ["chart:redis", "chart:redis"],
  ])("release %s is the service %s", (release, service) => {
    expect(chartServiceName(release)).toBe(service);
    expect(serviceKindOf(service)).toBe("chart");
  });

  it.each(["redis", "web", "charts", "chart-museum"])("%s is an image service", (name) => {
    expect(serviceKindOf(name)).toBe("image");
  });
});

describe("repository labels", () => {
  it.each([
    ["https://charts.bitnami.com/bitnami#redis", "chart redis (https://charts.bitnami.com/bitnami)"],
    ["oci://ghcr.io/acme/charts/shop-api", "chart shop-api (oci://ghcr.io/acme/charts)"],
    ["oci://registry.example.com/shop-api", "chart shop-api (oci://registry.example.com)"],
    ["chart:legacy-app", "chart legacy-app"],
    ["docker.io/library/redis", "docker.io/library/redis"],
  ])("%s reads %s", (key, label) => {
    expect(repositoryLabel(key)).toBe(label);
  });
});
