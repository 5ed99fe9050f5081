import { describe, expect, it } from "vitest";
import { DOCKER_HUB_PROFILE, pullCost, pullProfileOf, requestKindOf } from "./profiles";

describe("pullProfileOf", () => {
  it.each<[string, string[], boolean]>([
    ["docker.io", [], true],
    ["index.docker.io", [], true],
    ["registry-1.docker.io", [], true],
    ["ghcr.io", [], false],
    ["quay.io", [], false],
    ["127.0.0.1:5000", [], false],
    ["127.0.0.1:5000", ["127.0.0.1:5000"], true],
  ])("%s (also rationed: %j) → %s", (host, extra, rationed) => {
    expect(pullProfileOf(host, { dockerHubHosts: extra })).toBe(rationed ? DOCKER_HUB_PROFILE : null);
  });
});

describe("pullCost", () => {
  it.each<[string, string, number]>([
    ["GET", "/v2/library/nginx/manifests/1.27", 1],
    ["GET", "/v2/library/nginx/manifests/sha256:abc", 1],
    ["HEAD", "/v2/library/nginx/manifests/1.27", 0],
    ["GET", "/v2/library/nginx/tags/list", 0],
    ["GET", "/v2/library/nginx/blobs/sha256:abc", 0],
    ["GET", "/token", 0],
    ["GET", "/v2/", 0],
  ])("%s %s → %i", (method, path, cost) => {
    expect(pullCost(method, requestKindOf(path))).toBe(cost);
  });
});
