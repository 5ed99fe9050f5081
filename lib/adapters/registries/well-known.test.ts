import { describe, expect, it } from "vitest";
import { isServerQueried, parseRegistryHostList } from "@/lib/adapters/registries/well-known";

describe("isServerQueried", () => {
  it.each([
    ["docker.io", [], true],
    ["index.docker.io", [], true],
    ["registry-1.docker.io", [], true],
    ["ghcr.io", [], true],
    ["GHCR.IO", [], true],
    ["quay.io", [], true],
    ["gcr.io", [], true],
    ["eu.gcr.io", [], true],
    ["registry.k8s.io", [], true],
    ["public.ecr.aws", [], true],
    ["mcr.microsoft.com", [], true],
    ["lscr.io", [], true],
    ["registry.gitlab.com", [], true],
    ["ghcr.io:443", [], true],
    ["123456789012.dkr.ecr.eu-west-1.amazonaws.com", [], false],
    ["europe-docker.pkg.dev", [], false],
    ["registry.internal:5000", [], false],
    ["registry.internal:5000", ["registry.internal:5000"], true],
    ["registry.internal", ["registry.internal:5000"], false],
    ["Harbor.Example.com", ["harbor.example.com"], true],
    ["localhost:5000", ["127.0.0.1:5000"], false],
  ])("%s with %j → %s", (host, extra, expected) => {
    expect(isServerQueried(host, extra)).toBe(expected);
  });
});

describe("parseRegistryHostList", () => {
  it.each([
    [undefined, { hosts: [] }],
    ["", { hosts: [] }],
    ["registry.internal:5000", { hosts: ["registry.internal:5000"] }],
    [" a.example , B.example:8443,,a.example ", { hosts: ["a.example", "b.example:8443"] }],
    ["index.docker.io", { hosts: ["docker.io"] }],
    ["a.example,https://b.example", { invalid: "https://b.example" }],
    ["a.example:99999", { invalid: "a.example:99999" }],
  ])("%j", (value, expected) => {
    expect(parseRegistryHostList(value)).toEqual(expected);
  });
});
