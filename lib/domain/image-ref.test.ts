import { describe, expect, it } from "vitest";
import {
  familiarName,
  formatImageRef,
  isRegistryHost,
  normaliseRegistryHost,
  parseImageRef,
  registryApiHost,
} from "@/lib/domain/image-ref";

const D = `sha256:${"a".repeat(64)}`;
const D512 = `sha512:${"b".repeat(128)}`;

describe("parseImageRef", () => {
  it.each([
    ["nginx", "docker.io", "library/nginx", null, null],
    ["nginx:1.27", "docker.io", "library/nginx", "1.27", null],
    ["nginx:1.27-alpine", "docker.io", "library/nginx", "1.27-alpine", null],
    ["library/nginx:1.27", "docker.io", "library/nginx", "1.27", null],
    ["docker.io/nginx:1.27", "docker.io", "library/nginx", "1.27", null],
    ["docker.io/library/nginx:1.27", "docker.io", "library/nginx", "1.27", null],
    ["index.docker.io/library/nginx", "docker.io", "library/nginx", null, null],
    ["registry-1.docker.io/nginx:latest", "docker.io", "library/nginx", "latest", null],
    ["registry.hub.docker.com/bitnami/redis:7.2.5-debian-12-r4", "docker.io", "bitnami/redis", "7.2.5-debian-12-r4", null],
    ["bitnami/redis", "docker.io", "bitnami/redis", null, null],
    ["Docker.IO/nginx", "docker.io", "library/nginx", null, null],
    ["ghcr.io/owner/app:v1.2.3", "ghcr.io", "owner/app", "v1.2.3", null],
    ["ghcr.io/owner/group/sub/app", "ghcr.io", "owner/group/sub/app", null, null],
    ["quay.io/prometheus/node-exporter:v1.8.2", "quay.io", "prometheus/node-exporter", "v1.8.2", null],
    ["registry.k8s.io/pause:3.10", "registry.k8s.io", "pause", "3.10", null],
    ["public.ecr.aws/docker/library/redis:7", "public.ecr.aws", "docker/library/redis", "7", null],
    ["localhost:5000/x", "localhost:5000", "x", null, null],
    ["localhost/x:1", "localhost", "x", "1", null],
    ["127.0.0.1:5000/team/app:2.0", "127.0.0.1:5000", "team/app", "2.0", null],
    ["[::1]:5000/app:1", "[::1]:5000", "app", "1", null],
    ["Registry.Example.COM:8443/a/b:1", "registry.example.com:8443", "a/b", "1", null],
    [`nginx@${D}`, "docker.io", "library/nginx", null, D],
    [`nginx:1.27@${D}`, "docker.io", "library/nginx", "1.27", D],
    [`registry.example.com:5000/path/app:1.0@${D}`, "registry.example.com:5000", "path/app", "1.0", D],
    [`ghcr.io/o/a@${D512}`, "ghcr.io", "o/a", null, D512],
    [`docker-pullable://nginx@${D}`, "docker.io", "library/nginx", null, D],
    [`docker.io/library/nginx@${D}`, "docker.io", "library/nginx", null, D],
    ["example.com/a_b__c-d--e.f/g", "example.com", "a_b__c-d--e.f/g", null, null],
    ["my_app__x---y", "docker.io", "library/my_app__x---y", null, null],
    ["  nginx:1.27  ", "docker.io", "library/nginx", "1.27", null],
    // Without a slash, `host:port` is a name and a tag (the Docker CLI reads it so).
    ["localhost:5000", "docker.io", "library/localhost", "5000", null],
  ])("%s", (input, host, path, tag, digest) => {
    expect(parseImageRef(input)).toEqual({ host, path, tag, digest, key: `${host}/${path}` });
  });

  it.each([
    [""],
    ["   "],
    ["nginx:"],
    [":1.27"],
    ["nginx@"],
    ["nginx@sha256:abc"],
    [`nginx@sha256:${"A".repeat(64)}`],
    [`nginx@md5:${"a".repeat(32)}`],
    ["Nginx"],
    ["library/Nginx:1"],
    ["nginx:1.27:2"],
    ["nginx:-bad"],
    [`nginx:${"x".repeat(129)}`],
    ["ghcr.io/"],
    ["ghcr.io//app"],
    ["ghcr.io/app/"],
    ["-ghcr.io/app"],
    ["ghcr.io:99999/app"],
    ["ghcr.io:/app"],
    ["a..b/app"],
    ["under_score.io/app"],
    ["app-"],
    ["nginx latest"],
    ["http://ghcr.io/app"],
    [`ghcr.io/${"a".repeat(250)}`],
  ])("rejects %j", (input) => {
    expect(parseImageRef(input)).toBeNull();
  });

  it("gives the same key for every spelling of one repository", () => {
    const spellings = ["nginx", "nginx:1.27", "library/nginx", "docker.io/nginx", "index.docker.io/library/nginx:1", `nginx@${D}`];
    expect(new Set(spellings.map((s) => parseImageRef(s)?.key))).toEqual(new Set(["docker.io/library/nginx"]));
  });
});

describe("registry hosts", () => {
  it.each([
    ["docker.io", "registry-1.docker.io"],
    ["index.docker.io", "registry-1.docker.io"],
    ["registry-1.docker.io", "registry-1.docker.io"],
    ["ghcr.io", "ghcr.io"],
    ["localhost:5000", "localhost:5000"],
    ["Quay.IO", "quay.io"],
  ])("registryApiHost(%s) = %s", (host, api) => {
    expect(registryApiHost(host)).toBe(api);
  });

  it.each([
    ["INDEX.docker.io", "docker.io"],
    ["registry.hub.docker.com", "docker.io"],
    ["GHCR.io", "ghcr.io"],
  ])("normaliseRegistryHost(%s) = %s", (host, normal) => {
    expect(normaliseRegistryHost(host)).toBe(normal);
  });

  it.each([
    ["ghcr.io", true],
    ["registry.local:5000", true],
    ["localhost", true],
    ["[::1]:5000", true],
    ["bad_host", false],
    ["host:0", false],
    ["host:65536", false],
    ["", false],
  ])("isRegistryHost(%j) = %s", (host, ok) => {
    expect(isRegistryHost(host)).toBe(ok);
  });
});

describe("formatting", () => {
  it.each([
    ["nginx:1.27", "docker.io/library/nginx:1.27", "nginx"],
    ["bitnami/redis", "docker.io/bitnami/redis", "bitnami/redis"],
    [`ghcr.io/o/a:1@${D}`, `ghcr.io/o/a:1@${D}`, "ghcr.io/o/a"],
  ])("%s", (input, full, familiar) => {
    const ref = parseImageRef(input);
    expect(ref && formatImageRef(ref)).toBe(full);
    expect(ref && familiarName(ref)).toBe(familiar);
  });
});
