import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startReplayServer, type ReplayServer } from "@/tests/support/replay-server";
import { dockerRoutes, runtimeFixture } from "@/tests/support/docker-fixture-routes";
import type { RegistryCredential } from "@/lib/adapters/runtimes/credentials";
import { collect, configuredSources } from "./collect";

const servers: ReplayServer[] = [];
let tmp: string | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("configuredSources", () => {
  it.each([
    [{ environment: "e" }, []],
    [{ environment: "e", docker: {} }, ["docker"]],
    [{ environment: "e", kubeconfig: "/k" }, ["kubernetes"]],
    [{ environment: "e", inCluster: { host: "10.96.0.1", port: 443 }, swarm: {}, nomad: { addr: "http://n:4646" } }, ["kubernetes", "swarm", "nomad"]],
  ])("%j → %j", (opts, expected) => {
    expect(configuredSources(opts)).toEqual(expected);
  });
});

describe("collect", () => {
  it("makes one report per target across runtimes, names the failing source, and offers pull-secret credentials to registry lookups", async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "dw-collect-"));
    const socketPath = path.join(tmp, "docker.sock");
    servers.push(await startReplayServer(dockerRoutes({ list: "docker/containers-set1.json", containerDirs: ["docker/containers"] }), { socketPath }));
    const kube = await startReplayServer([
      { path: "/api/v1/pods", reply: { body: runtimeFixture("kubernetes/pods-2.json") } },
      { path: "/apis/apps/v1/replicasets", reply: { body: runtimeFixture("kubernetes/replicasets.json") } },
      { path: "/api/v1/nodes", reply: { body: runtimeFixture("kubernetes/nodes.json") } },
      { path: "/api/v1/namespaces/shop/secrets/ghcr-pull", reply: { body: runtimeFixture("kubernetes/secrets/shop-ghcr-pull.json") } },
    ]);
    servers.push(kube);
    const kubeconfig = path.join(tmp, "kubeconfig");
    writeFileSync(kubeconfig, `current-context: prod\ncontexts: [{name: prod, context: {cluster: c, user: u}}]\nclusters: [{name: c, cluster: {server: "${kube.url}"}}]\nusers: [{name: u, user: {token: t}}]\n`);
    const dockerConfig = path.join(tmp, "config.json");
    writeFileSync(dockerConfig, JSON.stringify({ auths: { "https://index.docker.io/v1/": { auth: Buffer.from("hubuser:hubpass").toString("base64") } } }));

    const asked: [string, RegistryCredential | null][] = [];
    const result = await collect(
      { environment: "staging", docker: { socketPath }, kubeconfig, namespaces: { monitoring: "ops" }, nomad: { addr: "http://127.0.0.1:1" }, dockerConfig },
      {
        now: () => new Date("2026-11-20T10:00:00Z"),
        lookupRegistries: async (workloads, credentials) => {
          for (const repo of ["ghcr.io/acme/shop-api", "docker.io/library/nginx", "quay.io/prometheus/node-exporter"]) asked.push([repo, await credentials.forRepository(repo)]);
          return workloads.length ? [{ repository: "ghcr.io/acme/shop-api", tags: ["2.4.1"], digests: [], resolved: [], error: null }] : [];
        },
      },
    );

    expect(result.reports.map((r) => [r.environment, r.target.name, r.observed_at, r.workloads.length > 0, r.registry_results.length])).toEqual([
      ["staging", "docker@app-host-1", "2026-11-20T10:00:00.000Z", true, 1],
      ["staging", "kubernetes@prod", "2026-11-20T10:00:00.000Z", true, 1],
      ["ops", "kubernetes@prod/ops", "2026-11-20T10:00:00.000Z", true, 1],
    ]);
    expect(result.failures).toEqual([{ source: "nomad", message: expect.stringMatching(/^Cannot reach Nomad API at 127\.0\.0\.1:1/) }]);
    expect(asked.slice(0, 3)).toEqual([
      ["ghcr.io/acme/shop-api", { username: "acme-bot", password: "ghp_exampleexampleexample0001" }],
      ["docker.io/library/nginx", { username: "hubuser", password: "hubpass" }],
      ["quay.io/prometheus/node-exporter", null],
    ]);
  });

  it("reports an empty target when nothing runs, so the server closes what stopped", async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "dw-collect-"));
    const socketPath = path.join(tmp, "docker.sock");
    servers.push(
      await startReplayServer(
        [
          { path: "/info", reply: { body: runtimeFixture("docker/info.json") } },
          { path: "/containers/json", reply: { body: [] } },
        ],
        { socketPath },
      ),
    );
    const result = await collect({ environment: "staging", docker: { socketPath } });
    expect(result.failures).toEqual([]);
    expect(result.reports).toMatchObject([{ target: { name: "docker@app-host-1", kind: "docker" }, workloads: [], registry_results: [] }]);
  });
});
