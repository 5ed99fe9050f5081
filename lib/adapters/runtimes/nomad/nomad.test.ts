import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startReplayServer, type ReplayServer, type Route } from "@/tests/support/replay-server";
import { runtimeFixture } from "@/tests/support/docker-fixture-routes";
import { collectNomad } from "./collect-nomad";
import { taskOfContainer } from "./transform";

const ALLOC_DIR = path.join(import.meta.dirname, "..", "..", "..", "..", "tests", "fixtures", "runtimes", "nomad", "allocation");
const allocIds = readdirSync(ALLOC_DIR).map((f) => f.replace(/\.json$/, ""));

function nomadRoutes(set: 1 | 2, self: "ok" | "forbidden" = "ok"): Route[] {
  return [
    { path: "/v1/agent/self", reply: self === "ok" ? { body: runtimeFixture("nomad/agent-self.json") } : { status: 403, body: "Permission denied" } },
    { path: "/v1/allocations", reply: { body: runtimeFixture(`nomad/allocations-${set}.json`) } },
    {
      path: /^\/v1\/allocation\/[0-9a-f-]+/,
      reply: (_req, url) => {
        const id = url.pathname.split("/")[3] ?? "";
        return allocIds.includes(id) ? { body: runtimeFixture(`nomad/allocation/${id}.json`) } : { status: 404, body: "alloc not found" };
      },
    },
  ];
}

function nodeDockerRoutes(): Route[] {
  const images = new Map(
    readdirSync(path.join(ALLOC_DIR, "..", "docker", "images")).map((f) => {
      const body = runtimeFixture<{ Id: string }>(`nomad/docker/images/${f}`);
      return [body.Id, body] as const;
    }),
  );
  return [
    { path: "/containers/json", reply: { body: runtimeFixture("nomad/docker/containers-c1.json") } },
    { path: /^\/images\/[^/]+\/json/, reply: (_req, url) => ({ body: images.get(decodeURIComponent(url.pathname.split("/")[2] ?? "")) }) },
  ];
}

describe("taskOfContainer", () => {
  it.each([
    ["the task_name label", { "com.hashicorp.nomad.alloc_id": "a1b2", "com.hashicorp.nomad.task_name": "nginx" }, ["/whatever"], { allocId: "a1b2", task: "nginx" }],
    ["the <task>-<alloc id> name", { "com.hashicorp.nomad.alloc_id": "a1b2" }, ["/connect-proxy-web-a1b2"], { allocId: "a1b2", task: "connect-proxy-web" }],
    ["no Nomad label", {}, ["/nginx-a1b2"], null],
  ])("from %s", (_, labels, names, expected) => {
    expect(taskOfContainer(labels, names)).toEqual(expected);
  });
});

describe("collectNomad against a replayed Nomad API and node Docker daemon", () => {
  let nomad: ReplayServer | undefined;
  let docker: ReplayServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await nomad?.close();
    await docker?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const start = async (set: 1 | 2, self: "ok" | "forbidden" = "ok") => {
    nomad = await startReplayServer(nomadRoutes(set, self));
    dir = mkdtempSync(path.join(os.tmpdir(), "dw-nomad-"));
    const dockerSocket = path.join(dir, "docker.sock");
    docker = await startReplayServer(nodeDockerRoutes(), { socketPath: dockerSocket });
    return { addr: nomad.url, token: "nomad-acl-secret", dockerSocket };
  };

  it("reports running tasks, with digests for the allocations on this node", async () => {
    const opts = await start(1);
    const obs = await collectNomad(opts);
    expect(obs.target).toEqual({ name: "nomad@eu-west", kind: "nomad" });
    expect(obs.workloads.map((w) => [w.service, w.container, w.main, w.image, w.digest === null ? "no digest" : "digest", w.since])).toEqual([
      ["checkout-api", "api", true, "registry.acme.internal:5000/acme/shop-api:2.4.1", "digest", "2026-11-15T16:20:00.000Z"],
      ["redis", "exporter", false, "oliver006/redis_exporter:v1.62.0", "no digest", "2026-09-01T09:30:05.000Z"],
      ["redis", "redis", true, "redis:7.2", "no digest", "2026-09-01T09:30:04.000Z"],
      ["web", "connect-proxy-web", false, "envoyproxy/envoy:v1.29.4", "digest", "2026-11-02T09:14:05.000Z"],
      ["web", "nginx", true, "nginx:1.27.2-alpine", "digest", "2026-11-02T09:14:09.000Z"],
      ["web", "nginx", true, "nginx:1.27.3-alpine", "digest", "2026-11-20T09:58:12.000Z"],
    ]);
    expect(obs.workloads.every((w) => w.application === "shop" || w.application === "redis")).toBe(true);
    // Complete and failed allocations are not read one by one; every request carries the token.
    expect(nomad!.count("/v1/allocation/")).toBe(6);
    expect(nomad!.requests.every((r) => r.headers["x-nomad-token"] === "nomad-acl-secret")).toBe(true);
    expect(nomad!.requests.find((r) => r.path.startsWith("/v1/allocations"))?.path).toBe("/v1/allocations?namespace=*");
    expect(docker!.count("/containers/json")).toBe(1);
  });

  it("sees a stopped job and a replaced allocation on the next read", async () => {
    const opts = await start(2);
    const obs = await collectNomad(opts);
    expect(obs.workloads.some((w) => w.service === "redis")).toBe(false);
    expect(obs.workloads.find((w) => w.image === "nginx:1.27.2-alpine")?.since).toBe("2026-11-02T09:14:10.000Z");
  });

  it("names the target after the address when the token may not read the agent", async () => {
    const opts = await start(1, "forbidden");
    const obs = await collectNomad({ ...opts, dockerSocket: undefined });
    expect(obs.target.name).toBe(`nomad@${new URL(opts.addr).host}`);
    expect(obs.workloads.every((w) => w.digest === null)).toBe(true);
  });
});
