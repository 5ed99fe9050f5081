import { afterEach, describe, expect, it } from "vitest";
import { startReplayServer, type ReplayServer, type Route } from "@/tests/support/replay-server";
import { runtimeFixture } from "@/tests/support/docker-fixture-routes";
import { collectSwarm } from "./collect-swarm";
import { swarmServiceListSchema } from "./schema";
import { serviceNameOf } from "./transform";

type Task = { ServiceID: string; DesiredState: string };

/** A manager that applies the `service` and `desired-state` task filters, as the real one does. */
function swarmRoutes(set: 1 | 2, info = "swarm/info-manager.json"): Route[] {
  return [
    { path: "/info", reply: { body: runtimeFixture(info) } },
    { path: "/services", reply: { body: runtimeFixture(`swarm/services-${set}.json`) } },
    { path: "/nodes", reply: { body: runtimeFixture("swarm/nodes.json") } },
    {
      path: "/tasks",
      reply: (_req, url) => {
        const filters = JSON.parse(url.searchParams.get("filters") ?? "{}") as { service?: string[]; "desired-state"?: string[] };
        const tasks = runtimeFixture<Task[]>(`swarm/tasks-${set}.json`).filter(
          (t) => (!filters.service || filters.service.includes(t.ServiceID)) && (!filters["desired-state"] || filters["desired-state"].includes(t.DesiredState)),
        );
        return { body: tasks };
      },
    },
  ];
}

describe("serviceNameOf", () => {
  const services = swarmServiceListSchema.parse(runtimeFixture("swarm/services-1.json"));
  it.each([
    ["shop_web", { service: "web", application: "shop" }],
    ["shop_api", { service: "checkout-api", application: "shop" }],
    ["cadvisor", { service: "cadvisor" }],
  ])("%s", (name, expected) => {
    expect(serviceNameOf(services.find((s) => s.Spec.Name === name)!)).toEqual(expected);
  });
});

describe("collectSwarm against a replayed manager", () => {
  let server: ReplayServer | undefined;
  afterEach(() => server?.close());

  it("reports running tasks per service image, with both images of a rolling update", async () => {
    server = await startReplayServer(swarmRoutes(1));
    const obs = await collectSwarm({ url: server.url });
    expect(obs.target).toEqual({ name: "swarm@swarm-mgr-1", kind: "swarm" });
    expect(obs.workloads.map((w) => [w.service, w.container, w.image, w.digest?.slice(0, 14) ?? null, w.platform, w.since])).toEqual([
      ["cadvisor", "cadvisor", "gcr.io/cadvisor/cadvisor:v0.49.1", null, "linux/amd64", "2026-10-05T12:00:00.000Z"],
      ["checkout-api", "shop_api", "ghcr.io/acme/shop-api:2.4.1", "sha256:a0fc8aa", null, "2026-11-15T16:20:05.000Z"],
      ["traefik", "edge_traefik", "traefik:3.1", expect.stringMatching(/^sha256:/), null, "2026-11-01T00:00:01.000Z"],
      ["web", "shop_web", "nginx:1.27.2-alpine", expect.stringMatching(/^sha256:/), null, "2026-11-02T09:14:03.551Z"],
      ["web", "shop_web", "nginx:1.27.3-alpine", expect.stringMatching(/^sha256:/), "linux/amd64", "2026-11-20T09:55:08.414Z"],
    ]);
    const filter = decodeURIComponent(server.requests.find((r) => r.path.startsWith("/tasks"))!.path.split("filters=")[1]!);
    expect(JSON.parse(filter)).toMatchObject({ "desired-state": ["running"] });
    expect((JSON.parse(filter) as { service: string[] }).service).toHaveLength(5);
  });

  it("sees the update completed and a removed service on the next read", async () => {
    server = await startReplayServer(swarmRoutes(2));
    const obs = await collectSwarm({ url: server.url });
    expect(obs.workloads.filter((w) => w.service === "web").map((w) => [w.image, w.since])).toEqual([["nginx:1.27.3-alpine", "2026-11-20T09:55:08.414Z"]]);
    expect(obs.workloads.some((w) => w.service === "cadvisor")).toBe(false);
  });

  it("refuses a node that is not a manager", async () => {
    server = await startReplayServer(swarmRoutes(1, "swarm/info-worker.json"));
    await expect(collectSwarm({ url: server.url })).rejects.toThrow(/swarm-wrk-1 is not a Swarm manager/);
  });
});
