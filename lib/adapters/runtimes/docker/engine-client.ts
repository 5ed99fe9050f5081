// Docker Engine API client over a unix socket or TCP. Swarm and Nomad reuse it
// (a Swarm manager speaks the same API; Nomad's digests come from the node's daemon).
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { requestJson, type HttpEndpoint } from "../http-json";
import {
  containerInspectSchema,
  containerListSchema,
  engineInfoSchema,
  imageInspectSchema,
  type ContainerInspect,
  type ContainerSummary,
  type EngineInfo,
  type ImageInspect,
} from "./schema";

export type DockerEndpointOptions = {
  /** Path of the daemon's unix socket; default `/var/run/docker.sock`. */
  socketPath?: string;
  /** `unix:///…`, `tcp://host:2375`, `http://…` or `https://…` (as DOCKER_HOST). */
  url?: string;
  /** PEM file paths for a daemon behind TLS (`tcp://…:2376`). */
  tls?: { caFile?: string; certFile?: string; keyFile?: string; insecure?: boolean };
  timeoutMs?: number;
};

export const DEFAULT_DOCKER_SOCKET = "/var/run/docker.sock";

export function dockerEndpoint(opts: DockerEndpointOptions, label = "Docker Engine"): HttpEndpoint {
  const base = { label, timeoutMs: opts.timeoutMs ?? 15_000 };
  if (opts.socketPath) return { ...base, baseUrl: "http://localhost", socketPath: opts.socketPath };
  if (!opts.url) return { ...base, baseUrl: "http://localhost", socketPath: DEFAULT_DOCKER_SOCKET };
  if (opts.url.startsWith("unix://")) return { ...base, baseUrl: "http://localhost", socketPath: opts.url.slice("unix://".length) };
  const tls = opts.tls;
  const useTls = opts.url.startsWith("https://") || (!!tls && opts.url.startsWith("tcp://"));
  const url = opts.url.replace(/^tcp:\/\//, useTls ? "https://" : "http://");
  if (!/^https?:\/\//.test(url)) throw new AppError("invalid_input", `Unsupported Docker host "${opts.url}": use unix://, tcp://, http:// or https://.`);
  return {
    ...base,
    baseUrl: url,
    tls: tls && {
      ca: tls.caFile ? readFileSync(tls.caFile) : undefined,
      cert: tls.certFile ? readFileSync(tls.certFile) : undefined,
      key: tls.keyFile ? readFileSync(tls.keyFile) : undefined,
      rejectUnauthorized: !tls.insecure,
    },
  };
}

export type DockerClient = {
  endpoint: HttpEndpoint;
  info: () => Promise<EngineInfo>;
  listContainers: (filters?: Record<string, string[]>) => Promise<ContainerSummary[]>;
  /** null when the container went away between the list and the inspect. */
  inspectContainer: (id: string) => Promise<ContainerInspect | null>;
  inspectImage: (id: string) => Promise<ImageInspect | null>;
  get: <S extends z.ZodType>(path: string, schema: S) => Promise<z.infer<S>>;
};

async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  }
}

export function createDockerClient(endpoint: HttpEndpoint): DockerClient {
  const get = <S extends z.ZodType>(path: string, schema: S) => requestJson(endpoint, path, schema);
  return {
    endpoint,
    get,
    info: () => get("/info", engineInfoSchema),
    listContainers: (filters) =>
      get(`/containers/json${filters ? `?filters=${encodeURIComponent(JSON.stringify(filters))}` : ""}`, containerListSchema),
    inspectContainer: (id) => orNull(get(`/containers/${encodeURIComponent(id)}/json`, containerInspectSchema)),
    inspectImage: (id) => orNull(get(`/images/${encodeURIComponent(id)}/json`, imageInspectSchema)),
  };
}
