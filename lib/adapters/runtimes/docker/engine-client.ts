// Docker Engine API client over a unix socket or TCP. Swarm and Nomad reuse it
// (a Swarm manager speaks the same API; Nomad's digests come from the node's daemon).
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { httpRequest, requestJson, type HttpEndpoint } from "../http-json";
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

/**
 * The newest Engine API version whose answers the schemas here were checked against. A newer engine
 * is spoken to in this version (engines keep serving older ones); an older engine in its own.
 */
export const MAX_DOCKER_API_VERSION = "1.51";

function compareApiVersions(a: string, b: string): number {
  const [am = 0, an = 0] = a.split(".").map(Number);
  const [bm = 0, bn = 0] = b.split(".").map(Number);
  return am - bm || an - bn;
}

const API_VERSION = /^\d+\.\d+$/;

/**
 * The API version to use with an engine: its own (`/_ping` answers it in `API-Version`, `/version` in
 * `ApiVersion`) capped at MAX_DOCKER_API_VERSION; null when the engine names none (paths stay unversioned).
 */
export async function negotiateApiVersion(endpoint: HttpEndpoint): Promise<string | null> {
  const ping = await httpRequest(endpoint, "/_ping");
  let version = ping.status === 200 ? String(ping.headers["api-version"] ?? "") : "";
  if (!API_VERSION.test(version)) {
    const res = await httpRequest(endpoint, "/version");
    try {
      const body = res.status === 200 ? (JSON.parse(res.body) as { ApiVersion?: unknown }) : {};
      version = typeof body.ApiVersion === "string" ? body.ApiVersion : "";
    } catch {
      version = "";
    }
  }
  if (!API_VERSION.test(version)) return null;
  return compareApiVersions(version, MAX_DOCKER_API_VERSION) > 0 ? MAX_DOCKER_API_VERSION : version;
}

export type DockerClient = {
  endpoint: HttpEndpoint;
  /** The negotiated API version (null: unversioned paths). */
  apiVersion: () => Promise<string | null>;
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
  let negotiated: Promise<string | null> | null = null;
  const apiVersion = () => {
    negotiated ??= negotiateApiVersion(endpoint).catch((err: unknown) => {
      negotiated = null;
      throw err;
    });
    return negotiated;
  };
  // Versioned paths keep the answers' shapes fixed whatever the engine's own version.
  const get = async <S extends z.ZodType>(path: string, schema: S) => {
    const version = await apiVersion();
    return requestJson(endpoint, version ? `/v${version}${path}` : path, schema);
  };
  return {
    endpoint,
    apiVersion,
    get,
    info: () => get("/info", engineInfoSchema),
    listContainers: (filters) =>
      get(`/containers/json${filters ? `?filters=${encodeURIComponent(JSON.stringify(filters))}` : ""}`, containerListSchema),
    inspectContainer: (id) => orNull(get(`/containers/${encodeURIComponent(id)}/json`, containerInspectSchema)),
    inspectImage: (id) => orNull(get(`/images/${encodeURIComponent(id)}/json`, imageInspectSchema)),
  };
}
