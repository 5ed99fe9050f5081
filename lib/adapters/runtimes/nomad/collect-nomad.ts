// What runs in one Nomad region: running allocations from the Nomad API,
// digests from the Docker daemon of the node the agent runs on.
import type { Workload } from "@/lib/domain/agent-report";
import { AppError } from "@/lib/domain/errors";
import { readNodeContainers } from "./node-docker";
import { mapLimit, requestJson, type HttpEndpoint } from "../http-json";
import { agentSelfSchema, allocationListSchema, allocationSchema, type Allocation } from "./schema";
import { nomadWorkloads } from "./transform";

export type NomadCollectOptions = {
  /** `http://127.0.0.1:4646` */
  addr: string;
  /** ACL token, sent as `X-Nomad-Token`. */
  token?: string;
  /** The node's Docker socket (or `unix://`/`tcp://` URL), where digests are read. */
  dockerSocket?: string;
  /** Nomad namespace to list; default every namespace (`*`). */
  namespace?: string;
  /** Target name; default `nomad@<region>`, or `nomad@<addr host>` when the region cannot be read. */
  name?: string;
  /** PEM CA for an https address. */
  caFile?: string;
  timeoutMs?: number;
};

export type NomadObservation = { target: { name: string; kind: "nomad" }; workloads: Workload[] };

export function nomadEndpoint(opts: NomadCollectOptions, ca?: Buffer): HttpEndpoint {
  return {
    label: "Nomad API",
    baseUrl: opts.addr,
    headers: opts.token ? { "x-nomad-token": opts.token } : {},
    tls: ca ? { ca } : undefined,
    timeoutMs: opts.timeoutMs ?? 15_000,
  };
}

/** The region names the target; without `agent:read` the address host stands in, never a transient guess. */
async function targetName(endpoint: HttpEndpoint, opts: NomadCollectOptions): Promise<string> {
  if (opts.name) return opts.name;
  try {
    const self = await requestJson(endpoint, "/v1/agent/self", agentSelfSchema);
    if (self.config?.Region) return `nomad@${self.config.Region}`;
  } catch (err) {
    if (!(err instanceof AppError && err.code === "forbidden")) throw err;
  }
  return `nomad@${new URL(opts.addr).host}`;
}

export async function collectNomad(opts: NomadCollectOptions, endpoint: HttpEndpoint = nomadEndpoint(opts)): Promise<NomadObservation> {
  const name = await targetName(endpoint, opts);
  const namespace = encodeURIComponent(opts.namespace ?? "*");
  const stubs = await requestJson(endpoint, `/v1/allocations?namespace=${namespace}`, allocationListSchema);
  const running = stubs.filter((a) => a.ClientStatus === "running");
  const allocs = (
    await mapLimit(running, 8, async (stub): Promise<Allocation | null> => {
      try {
        return await requestJson(endpoint, `/v1/allocation/${encodeURIComponent(stub.ID)}?namespace=${encodeURIComponent(stub.Namespace)}`, allocationSchema);
      } catch (err) {
        // Garbage-collected between the list and the read.
        if (err instanceof AppError && err.code === "not_found") return null;
        throw err;
      }
    })
  ).filter((a) => a !== null);
  const containers = opts.dockerSocket ? await readNodeContainers(opts.dockerSocket) : new Map();
  return { target: { name, kind: "nomad" }, workloads: nomadWorkloads(allocs, containers) };
}
