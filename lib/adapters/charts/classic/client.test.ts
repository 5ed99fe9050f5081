// The classic chart repository client against a real repository on loopback: charts packaged by
// `helm package`, index.yaml written by `helm repo index`, served with ETags.
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chartWorkshop, indexYamlOf, serveChartRepository, type ChartRepositoryServer, type ChartWorkshop } from "@/tests/support/chart-repos";
import { createChartIndexClient } from "./client";

let workshop: ChartWorkshop;
let repo: ChartRepositoryServer;
let root: string;

beforeAll(async () => {
  workshop = await chartWorkshop();
  root = path.join(workshop.dir, "repo");
  await workshop.packageChart("edge-proxy", [{ version: "4.11.2", appVersion: "1.11.2" }, { version: "4.11.3", appVersion: "1.11.3" }, { version: "4.12.0-rc.1" }], root);
  await workshop.packageChart("sidekick", [{ version: "0.1.0" }], root);
  repo = await serveChartRepository(workshop, root);
}, 120_000);
afterAll(async () => {
  await repo?.close();
  workshop?.close();
});

describe("a classic chart repository", () => {
  it("lists a chart's versions with their publication times from index.yaml", async () => {
    const client = createChartIndexClient({ insecureHosts: [repo.host] });
    const versions = await client.listVersions(repo.url, "edge-proxy");
    const index = parseYaml(indexYamlOf(root)) as { entries: Record<string, { version: string; created: string }[]> };
    const expected = index.entries["edge-proxy"]!.map((v) => ({ version: v.version, created: new Date(v.created) }));
    expect(versions).toEqual(expected);
    expect(versions.map((v) => v.version).sort()).toEqual(["4.11.2", "4.11.3", "4.12.0-rc.1"]);
  });

  it("asks again with the ETag and is answered 304 while nothing was published, then reads the new index", async () => {
    const client = createChartIndexClient({ insecureHosts: [repo.host] });
    const before = repo.requests.length;
    await client.listVersions(repo.url, "edge-proxy");
    expect(await client.listVersions(repo.url, "sidekick")).toEqual([expect.objectContaining({ version: "0.1.0" })]);
    expect(repo.requests.slice(before).map((r) => r.status)).toEqual([200, 304]);

    await workshop.packageChart("sidekick", [{ version: "0.2.0" }], root);
    await repo.reindex();
    expect((await client.listVersions(repo.url, "sidekick")).map((v) => v.version).sort()).toEqual(["0.1.0", "0.2.0"]);
    expect(repo.requests.at(-1)).toMatchObject({ path: "/index.yaml", status: 200 });
    expect(repo.requests.at(-1)?.ifNoneMatch).not.toBeNull();
  });

  it.each([
    ["a chart the index does not list", (url: string) => [url, "nothing-here"], { code: "not_found", message: expect.stringContaining("chart nothing-here is not in") }],
    ["a repository without index.yaml", (url: string) => [`${url}/elsewhere`, "edge-proxy"], { code: "not_found" }],
  ])("fails clearly for %s", async (_, args, expected) => {
    const client = createChartIndexClient({ insecureHosts: [repo.host] });
    const [url, chart] = args(repo.url) as [string, string];
    await expect(client.listVersions(url, chart)).rejects.toMatchObject(expected);
  });

  it("refuses plain http to a host not configured as insecure, before any request", async () => {
    const before = repo.requests.length;
    await expect(createChartIndexClient().listVersions(repo.url, "edge-proxy")).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("refusing http://") });
    expect(repo.requests.length).toBe(before);
  });
});
