import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startReplayServer, type ReplayServer } from "@/tests/support/replay-server";
import { agentReportSchema } from "@/lib/domain/agent-report";
import { collectDocker } from "./collect-docker";
import { dockerRoutes, runtimeFixture } from "@/tests/support/docker-fixture-routes";
import { containerInspectSchema, imageInspectSchema } from "./schema";
import { createDockerClient, dockerEndpoint, MAX_DOCKER_API_VERSION } from "./engine-client";
import { toDockerWorkload } from "./transform";

const hex = (s: string) => s.padEnd(64, "0");

describe("toDockerWorkload", () => {
  const container = (over: Record<string, unknown> = {}) =>
    containerInspectSchema.parse({ ...runtimeFixture<Record<string, unknown>>("docker/containers/shop-web-1.json"), ...over });
  const image = imageInspectSchema.parse(runtimeFixture("docker/images/3e13ce213672.json"));

  it("takes service and application from Compose labels and the index digest from RepoDigests", () => {
    expect(toDockerWorkload(container(), image)).toEqual({
      service: "web",
      container: "shop-web-1",
      main: true,
      image: "nginx:1.27-alpine",
      digest: "sha256:" + image.RepoDigests[0]!.split("@sha256:")[1],
      platform_digest: null,
      platform: "linux/amd64",
      since: "2026-11-12T08:00:00.412Z",
      application: "shop",
    });
  });

  it.each([
    ["driftwatch.service wins", { "driftwatch.service": "edge", "com.docker.compose.service": "web" }, "edge"],
    ["compose service", { "com.docker.compose.service": "web" }, "web"],
    ["container name otherwise", {}, "shop-web-1"],
  ])("service name: %s", (_, labels, expected) => {
    const c = container({ Config: { Image: "nginx:1.27-alpine", Labels: labels } });
    expect(toDockerWorkload(c, image)?.service).toBe(expected);
  });

  it.each([
    ["a digest-pinned reference gives its own digest", `nginx:1.27@sha256:${hex("ab")}`, [], "nginx:1.27", `sha256:${hex("ab")}`],
    ["docker.io spelling matches the short RepoDigest", "docker.io/library/nginx:1.27", [`nginx@sha256:${hex("cd")}`], "docker.io/library/nginx:1.27", `sha256:${hex("cd")}`],
    ["another repository's digest is not borrowed", "acme/nginx:1.27", [`nginx@sha256:${hex("cd")}`], "acme/nginx:1.27", null],
    ["a local build has none", "tools:dev", [], "tools:dev", null],
  ])("digest: %s", (_, ref, repoDigests, expectedImage, expectedDigest) => {
    const c = container({ Config: { Image: ref, Labels: {} } });
    const w = toDockerWorkload(c, { ...image, RepoDigests: repoDigests });
    expect([w?.image, w?.digest]).toEqual([expectedImage, expectedDigest]);
  });

  it("uses the creation time for a container its restart policy restarted", () => {
    const c = containerInspectSchema.parse(runtimeFixture("docker/containers/shop-api-1.json"));
    expect(c.RestartCount).toBe(3);
    expect(toDockerWorkload(c, null)?.since).toBe("2026-11-10T14:02:11.000Z");
  });

  it("reads the platform manifest digest where the containerd image store records it", () => {
    const c = containerInspectSchema.parse(runtimeFixture("docker/containers/db.json"));
    const img = imageInspectSchema.parse(runtimeFixture("docker/images/71c32fe7ac4e.json"));
    const w = toDockerWorkload(c, img);
    expect(w?.digest).toBe(img.RepoDigests[0]!.split("@")[1]);
    expect(w?.platform_digest).toBe(c.ImageManifestDescriptor?.digest);
    expect(w?.platform).toBe("linux/arm64/v8");
  });

  it("takes a platform digest from the driftwatch.platform-digest label", () => {
    const c = container({ Config: { Image: "nginx:1.27-alpine", Labels: { "driftwatch.platform-digest": `sha256:${hex("ef")}` } } });
    expect(toDockerWorkload(c, image)?.platform_digest).toBe(`sha256:${hex("ef")}`);
  });

  it("keeps a crash-looping container, dated from its creation, and ignores an exited one", () => {
    const flaky = containerInspectSchema.parse(runtimeFixture("docker/containers/flaky.json"));
    expect(toDockerWorkload(flaky, null)?.since).toBe("2026-11-19T10:00:00.000Z");
    const exited = container({ State: { Status: "exited", Running: false, StartedAt: "2026-11-12T08:00:00Z" } });
    expect(toDockerWorkload(exited, image)).toBeNull();
  });
});

describe("collectDocker over a unix socket", () => {
  let server: ReplayServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const start = async (list: string, containerDirs: string[]) => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dw-docker-"));
    const socketPath = path.join(dir, "docker.sock");
    server = await startReplayServer(dockerRoutes({ list, containerDirs }), { socketPath });
    return socketPath;
  };

  it("reports every running container, skipping those an orchestrator started", async () => {
    const socketPath = await start("docker/containers-set1.json", ["docker/containers"]);
    const obs = await collectDocker({ socketPath });

    expect(obs.target).toEqual({ name: "docker@app-host-1", kind: "docker" });
    expect(obs.workloads.map((w) => [w.service, w.container, w.image, w.digest !== null])).toEqual([
      ["api", "shop-api-1", "ghcr.io/acme/shop-api:2.4.1", true],
      ["cache", "cache", "redis:7.2", true],
      ["db", "db", "postgres:16.4", true],
      ["flaky", "flaky", "busybox:1.36", false],
      ["shop-jobs", "shop-worker-1", "ghcr.io/acme/shop-worker:2.4.1", true],
      ["tools", "tools", "shop-tools:dev", false],
      ["web", "shop-web-1", "nginx:1.27-alpine", true],
      ["web", "shop-web-2", "nginx:1.27-alpine", true],
    ]);
    // Each distinct image is inspected once, and the list is read once.
    expect(server!.count("/v1.41/images/")).toBe(6);
    expect(server!.count("/v1.41/containers/json")).toBe(1);
    // The version is asked once, and every call after it names it.
    expect(server!.count("/_ping")).toBe(1);
    expect(server!.requests.filter((r) => r.path !== "/_ping").every((r) => r.path.startsWith("/v1.41/"))).toBe(true);
    const report = agentReportSchema.parse({ environment: "staging", target: obs.target, observed_at: "2026-11-20T10:00:00Z", workloads: obs.workloads });
    expect(report.workloads).toHaveLength(8);
  });

  it("sees a rollout and a container that went away on the next read", async () => {
    const socketPath = await start("docker/containers-set2.json", ["docker/containers", "docker/containers-set2"]);
    const obs = await collectDocker({ socketPath });
    const web = obs.workloads.filter((w) => w.service === "web");
    expect(web.map((w) => [w.image, w.since])).toEqual([
      ["nginx:1.27.3-alpine", "2026-11-20T09:00:01.318Z"],
      ["nginx:1.27.3-alpine", "2026-11-20T09:00:02.001Z"],
    ]);
    expect(obs.workloads.some((w) => w.service === "shop-jobs")).toBe(false);
  });

  it("skips a container removed between the list and its inspect", async () => {
    const socketPath = await start("docker/containers-set1.json", ["docker/containers-set2"]);
    const obs = await collectDocker({ socketPath });
    expect(obs.workloads).toEqual([]);
  });

  it("fails with one clear message when the daemon is not there", async () => {
    await expect(collectDocker({ socketPath: path.join(os.tmpdir(), "dw-nothing-here.sock") })).rejects.toThrow(/Cannot reach Docker Engine at unix:\/\//);
  });
});

describe("Engine API version negotiation", () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const negotiate = async (routes: Parameters<typeof startReplayServer>[0]) => {
    server = await startReplayServer(routes);
    const client = createDockerClient(dockerEndpoint({ url: server.url }));
    return client.apiVersion();
  };
  it.each([
    ["an engine older than the client: its own version", "1.41", "1.41"],
    ["an engine newer than the client: the client's newest", "1.99", MAX_DOCKER_API_VERSION],
  ])("%s", async (_, engine, expected) => {
    expect(await negotiate([{ path: "/_ping", reply: { headers: { "api-version": engine }, body: "OK" } }])).toBe(expected);
  });
  it("falls back to /version when the ping names no version", async () => {
    expect(await negotiate([{ path: "/_ping", reply: { body: "OK" } }, { path: "/version", reply: { body: { ApiVersion: "1.43" } } }])).toBe("1.43");
  });
  it("keeps paths unversioned when the engine names no version", async () => {
    expect(await negotiate([])).toBeNull();
  });
});
