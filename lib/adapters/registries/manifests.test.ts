// Against a real registry on loopback, with images the test pushes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryClient, type RegistryClient } from "@/lib/adapters/registries/client";
import { countRegistryRequests, loopbackOnlyFetch, startRegistry, type PushedImage, type TestRegistry } from "@/tests/support/registry";

let registry: TestRegistry;
let client: RegistryClient;
const images: Record<string, PushedImage> = {};
const LABELS = { "org.opencontainers.image.source": "https://github.com/example/app", "org.opencontainers.image.version": "2.0.0" };

beforeAll(async () => {
  registry = await startRegistry();
  client = createRegistryClient({ insecureHosts: [registry.host], fetch: loopbackOnlyFetch });
  images.ociSingle = await registry.pushImage("team/oci-single", "1.0.0", { labels: LABELS });
  images.dockerSingle = await registry.pushImage("team/docker-single", "1.0.0", { format: "docker", labels: LABELS });
  images.ociIndex = await registry.pushImage("team/oci-multi", "2.0.0", { platforms: ["linux/amd64", "linux/arm64/v8"], labels: LABELS });
  images.dockerList = await registry.pushImage("team/docker-multi", "2.0.0", { format: "docker", platforms: ["linux/arm64/v8", "linux/amd64"], labels: LABELS });
}, 60_000);

afterAll(async () => {
  await registry?.stop();
});

const repo = (path: string) => ({ host: registry.host, path });

describe("headDigest", () => {
  it.each([
    ["team/oci-single", "ociSingle"],
    ["team/docker-single", "dockerSingle"],
    ["team/oci-multi", "ociIndex"],
    ["team/docker-multi", "dockerList"],
  ])("%s:tag gives the pushed top-level digest", async (path, key) => {
    const tag = key.includes("Single") ? "1.0.0" : "2.0.0";
    expect(await client.headDigest(repo(path), tag)).toBe(images[key]?.digest);
  });

  it("answers a digest reference with the same digest", async () => {
    const digest = images.ociIndex?.digest ?? "";
    expect(await client.headDigest(repo("team/oci-multi"), digest)).toBe(digest);
  });

  it("gives null for an unknown tag and an unknown repository", async () => {
    expect(await client.headDigest(repo("team/oci-multi"), "9.9.9")).toBeNull();
    expect(await client.headDigest(repo("team/nothing-here"), "1.0.0")).toBeNull();
  });

  it("sends HEAD only: no manifest GET", async () => {
    await registry.clearLog();
    await client.headDigest(repo("team/oci-multi"), "2.0.0");
    await registry.syncLog();
    expect(countRegistryRequests(registry.log, "HEAD", "manifests")).toBe(1);
    expect(countRegistryRequests(registry.log, "GET", "manifests")).toBe(0);
  });
});

describe("getManifest", () => {
  it("reads an OCI index with its platforms", async () => {
    const m = await client.getManifest(repo("team/oci-multi"), "2.0.0");
    expect(m).toEqual({
      digest: images.ociIndex?.digest,
      mediaType: "application/vnd.oci.image.index.v1+json",
      platforms: [
        { digest: images.ociIndex?.platforms[0]?.digest, os: "linux", architecture: "amd64" },
        { digest: images.ociIndex?.platforms[1]?.digest, os: "linux", architecture: "arm64", variant: "v8" },
      ],
      configDigest: null,
    });
  });

  it("reads a Docker manifest list", async () => {
    const m = await client.getManifest(repo("team/docker-multi"), "2.0.0");
    expect(m?.mediaType).toBe("application/vnd.docker.distribution.manifest.list.v2+json");
    expect(m?.platforms.map((p) => `${p.os}/${p.architecture}${p.variant ? `/${p.variant}` : ""}=${p.digest}`)).toEqual(
      images.dockerList?.platforms.map((p) => `${p.platform}=${p.digest}`),
    );
  });

  it.each([
    ["team/oci-single", "ociSingle", "application/vnd.oci.image.manifest.v1+json"],
    ["team/docker-single", "dockerSingle", "application/vnd.docker.distribution.manifest.v2+json"],
  ])("reads a single-platform manifest (%s)", async (path, key, mediaType) => {
    const m = await client.getManifest(repo(path), "1.0.0");
    expect(m).toEqual({ digest: images[key]?.digest, mediaType, platforms: [], configDigest: images[key]?.platforms[0]?.configDigest });
  });

  it("reads a platform manifest by digest", async () => {
    const arm = images.ociIndex?.platforms[1];
    const m = await client.getManifest(repo("team/oci-multi"), arm?.digest ?? "");
    expect(m?.configDigest).toBe(arm?.configDigest);
  });

  it("gives null for an unknown tag", async () => {
    expect(await client.getManifest(repo("team/oci-multi"), "0.0.1")).toBeNull();
  });
});

describe("getImageLabels", () => {
  it.each([["team/oci-single", "1.0.0"], ["team/docker-single", "1.0.0"], ["team/oci-multi", "2.0.0"], ["team/docker-multi", "2.0.0"]])(
    "reads the config labels of %s:%s",
    async (path, tag) => {
      expect(await client.getImageLabels(repo(path), tag)).toEqual(LABELS);
    },
  );

  it("reads the linux/amd64 config of an index even when arm64 comes first", async () => {
    await registry.clearLog();
    await client.getImageLabels(repo("team/docker-multi"), "2.0.0");
    await registry.syncLog();
    const amd64 = images.dockerList?.platforms.find((p) => p.platform === "linux/amd64");
    expect(registry.log.filter((e) => e.method === "GET").map((e) => e.path)).toEqual([
      "/v2/team/docker-multi/manifests/2.0.0",
      `/v2/team/docker-multi/manifests/${amd64?.digest}`,
      `/v2/team/docker-multi/blobs/${amd64?.configDigest}`,
    ]);
  });

  it("gives no labels for an image without any", async () => {
    await registry.pushImage("team/plain", "1", {});
    expect(await client.getImageLabels(repo("team/plain"), "1")).toEqual({});
  });

  it("throws not_found for an unknown tag", async () => {
    await expect(client.getImageLabels(repo("team/plain"), "404")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("listTags on the real registry", () => {
  it("lists every pushed tag, moving tags included", async () => {
    await registry.pushImage("team/tags", "1.0.0");
    await registry.pushImage("team/tags", "1.1.0");
    await registry.tagExisting("team/tags", "latest", "1.1.0");
    expect((await client.listTags(repo("team/tags"))).sort()).toEqual(["1.0.0", "1.1.0", "latest"]);
  });

  it("throws not_found for an unknown repository", async () => {
    await expect(client.listTags(repo("team/unknown"))).rejects.toMatchObject({ code: "not_found" });
  });
});
