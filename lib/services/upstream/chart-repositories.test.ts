import { describe, expect, it } from "vitest";
import { parseChartKey } from "@/lib/domain/charts";
import { chartKeyFor, isChartRepositoryAllowed } from "./chart-repositories";

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
