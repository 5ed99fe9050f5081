import { describe, expect, it } from "vitest";
import { parseChartKey } from "@/lib/domain/charts";
import { chartKeyFor, chartRepositoryRefusal, isChartRepositoryAllowed } from "./chart-repositories";

const SERVER = ["registry.acme.test:5000", "charts.acme.test"];

describe("the repository a release's chart is checked in", () => {
  it.each([
    ["the policy wins over everything", { name: "ingress-nginx", repository: "oci://ghcr.io/acme/charts" }, "https://charts.acme.test/stable", "https://charts.acme.test/stable#ingress-nginx"],
    ["the catalog names popular charts", { name: "ingress-nginx" }, null, "https://kubernetes.github.io/ingress-nginx#ingress-nginx"],
    ["bitnami's charts, told apart by their home", { name: "postgresql", home: "https://bitnami.com" }, null, "oci://docker.io/bitnamicharts/postgresql"],
    ["another publisher's chart of that name is not bitnami's", { name: "postgresql", home: "https://github.com/someone/charts" }, null, "chart:postgresql"],
    ["a repository the release names, on a registry the server queries", { name: "shop-api", repository: "oci://ghcr.io/acme/charts" }, null, "oci://ghcr.io/acme/charts/shop-api"],
    ["a repository the release names, on a configured host", { name: "shop-api", repository: "https://charts.acme.test/" }, null, "https://charts.acme.test#shop-api"],
    ["a repository the release names on a host the server may not call", { name: "shop-api", repository: "https://evil.example/charts" }, null, "chart:shop-api"],
    ["an OCI registry the server does not query", { name: "shop-api", repository: "oci://registry.internal/charts" }, null, "chart:shop-api"],
    ["nothing at all", { name: "shop-api" }, null, "chart:shop-api"],
  ])("%s", (_, chart, policy, expected) => {
    expect(chartKeyFor({ repository: null, home: null, ...chart }, policy, SERVER)).toBe(expected);
  });

  it.each([
    ["oci://ghcr.io/acme/charts/app", true],
    ["oci://registry.acme.test:5000/charts/app", true],
    ["oci://registry.internal/charts/app", false],
    ["https://charts.jetstack.io#cert-manager", true],
    ["https://charts.acme.test#app", true],
    ["https://charts.example.invalid/stable#app", false],
  ])("may the server call %s: %s", (key, allowed) => {
    expect(isChartRepositoryAllowed(parseChartKey(key)!, SERVER)).toBe(allowed);
  });
});

describe("why a policy's chart_repository is refused", () => {
  const config = { serverRegistries: SERVER, insecureRegistries: ["registry.acme.test:5000"] };
  it.each([
    ["a configured classic host", "https://charts.acme.test/stable", null],
    ["its index.yaml address", "https://charts.acme.test/stable/index.yaml", null],
    ["a catalog chart host", "https://kubernetes.github.io/ingress-nginx", null],
    ["a well-known OCI registry", "oci://ghcr.io/acme/charts", null],
    ["a configured OCI registry", "oci://registry.acme.test:5000/charts", null],
    ["a configured insecure host over http", "http://registry.acme.test:5000/charts", null],
    ["an unknown host", "https://charts.example.com", "charts.example.com is not a chart repository host the server may call: add it to DRIFTWATCH_SERVER_REGISTRIES"],
    ["an unknown host over http", "http://charts.example.com",
      "charts.example.com is not a chart repository host the server may call: add it to DRIFTWATCH_SERVER_REGISTRIES and, as it is served over http, to DRIFTWATCH_INSECURE_REGISTRIES"],
    ["a configured host over http that is not insecure", "http://charts.acme.test/stable", "charts.acme.test is served over http: add it to DRIFTWATCH_INSECURE_REGISTRIES, or use https://"],
    ["an unknown OCI registry", "oci://registry.example.com/charts", "registry.example.com is not a chart repository host the server may call: add it to DRIFTWATCH_SERVER_REGISTRIES"],
  ])("%s", (_, repository, refusal) => {
    expect(chartRepositoryRefusal(repository, config)).toBe(refusal);
  });
});
