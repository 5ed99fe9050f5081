// The Docker host this process can read (DOCKER_HOST, else /var/run/docker.sock), kept on globalThis
// so the pages and the watch loop share one probe; and the loop that runs the workspaces' watches of
// it every agent interval.
import os from "node:os";
import path from "node:path";
import type { DockerEndpointOptions } from "@/lib/adapters/runtimes/docker/engine-client";
import { DEFAULT_DOCKER_SOCKET } from "@/lib/adapters/runtimes/docker/engine-client";
import { describeDockerEndpoint, probeDockerEngine, type DockerEngineIdentity } from "@/lib/adapters/runtimes/docker/probe-engine";
import { getConfig, type Config } from "@/lib/config";
import { closeDb, createDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import type { DockerHost, DockerHostProbe } from "@/lib/services/docker-host/ports";
import { DOCKER_HOST_INTERVAL_MS, runDockerHostWatches } from "@/lib/services/docker-host/run-watches";

/** A page asking again within this long gets the last answer. */
const PROBE_MAX_AGE_MS = 5_000;

/** Where Docker's own tools would connect, or why this server cannot. */
export function dockerHostEndpoint(docker: Config["docker"]): { endpoint: DockerEndpointOptions } | { reason: string } {
  const host = docker.host;
  if (!host) return { endpoint: { socketPath: DEFAULT_DOCKER_SOCKET } };
  if (host.startsWith("unix://")) return { endpoint: { url: host } };
  if (/^(tcp|https?):\/\//.test(host)) {
    if (!docker.tlsVerify) return { endpoint: { url: host } };
    const dir = docker.certPath ?? path.join(os.homedir(), ".docker");
    return { endpoint: { url: host, tls: { caFile: path.join(dir, "ca.pem"), certFile: path.join(dir, "cert.pem"), keyFile: path.join(dir, "key.pem") } } };
  }
  return { reason: `DOCKER_HOST ${host} is not a host Driftwatch can read: use unix:// or tcp://.` };
}

/** The reason a socket could not be read, in words a person acts on. */
function unreadableReason(err: unknown, address: string): string {
  const code = (err as { cause?: { code?: string } }).cause?.code;
  if (code === "ENOENT") return `No Docker socket at ${address}.`;
  if (code === "EACCES") return `Permission denied on ${address}: the user running Driftwatch needs access to the Docker socket.`;
  if (code === "ECONNREFUSED") return `Nothing answers at ${address}: is the Docker Engine running?`;
  return ((err as Error).message || String(err)).split("\n")[0]!;
}

export function createDockerHost(docker: Config["docker"], probeEngine: (e: DockerEndpointOptions) => Promise<DockerEngineIdentity> = probeDockerEngine): DockerHost {
  const resolved = dockerHostEndpoint(docker);
  const endpoint = "endpoint" in resolved ? resolved.endpoint : null;
  let last: DockerHostProbe | null = null;
  let inFlight: Promise<DockerHostProbe> | null = null;
  const probeNow = async (): Promise<DockerHostProbe> => {
    const checkedAt = new Date();
    if (!endpoint) return { readable: false, address: docker.host ?? null, reason: "reason" in resolved ? resolved.reason : "no Docker host", checkedAt };
    const address = describeDockerEndpoint(endpoint);
    try {
      return { readable: true, address, engine: await probeEngine(endpoint), checkedAt };
    } catch (err) {
      return { readable: false, address, reason: unreadableReason(err, address), checkedAt };
    }
  };
  return {
    endpoint,
    probe: async ({ maxAgeMs = PROBE_MAX_AGE_MS } = {}) => {
      if (last && Date.now() - last.checkedAt.getTime() <= maxAgeMs) return last;
      inFlight ??= probeNow().then((p) => {
        last = p;
        inFlight = null;
        return p;
      });
      return inFlight;
    },
  };
}

const g = globalThis as unknown as { __driftwatchDockerHost?: DockerHost; __driftwatchDockerHostLoop?: DockerHostWatchLoop };

/** This process's Docker host, made on first use from the configuration. */
export function getDockerHost(config: Pick<Config, "docker"> = getConfig()): DockerHost {
  g.__driftwatchDockerHost ??= createDockerHost(config.docker);
  return g.__driftwatchDockerHost;
}

export type DockerHostWatchLoop = { runOnce: () => Promise<void>; stop: () => Promise<void> };

/**
 * Probe the host without holding up start-up, then every `intervalMs` run the watches of the engine it
 * reads. An engine that stops answering keeps its identity from the last probe, so its watches run,
 * fail, and show why.
 */
export function startDockerHostWatch(opts: { databaseUrl: string; config: Config; host?: DockerHost; intervalMs?: number }): DockerHostWatchLoop {
  const db = createDb(opts.databaseUrl, { max: 2 });
  const host = opts.host ?? getDockerHost(opts.config);
  const intervalMs = opts.intervalMs ?? DOCKER_HOST_INTERVAL_MS;
  let engine: DockerEngineIdentity | null = null;
  let running: Promise<void> | null = null;
  const lastErrors = new Map<string, string | null>();

  const tick = async () => {
    const probe = await host.probe({ maxAgeMs: 0 });
    if (probe.readable) {
      if (engine?.id !== probe.engine.id) log.info(`Docker host ${probe.address} readable: ${probe.engine.name}${probe.engine.swarmManager ? " (Swarm manager)" : ""}`);
      engine = probe.engine;
    }
    if (!engine) return;
    const outcomes = await runDockerHostWatches({ ctx: { db, config: opts.config, now: new Date() }, input: { engine, intervalMs }, host });
    // One line when a watch starts failing or its reason changes, one when it recovers.
    for (const o of outcomes) {
      const before = lastErrors.get(o.watch) ?? null;
      if (o.error && o.error !== before) log.warn(`docker host ${engine.name}: ${o.error}`);
      else if (!o.error && before) log.info(`docker host ${engine.name}: recovered`);
      lastErrors.set(o.watch, o.error);
    }
  };
  const runOnce = () => {
    running ??= tick()
      .catch((err: unknown) => log.error(`docker host watch failed: ${String(err)}`))
      .finally(() => {
        running = null;
      });
    return running;
  };
  void runOnce();
  const timer = setInterval(() => void runOnce(), intervalMs);
  timer.unref();
  const loop: DockerHostWatchLoop = {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      if (g.__driftwatchDockerHostLoop === loop) g.__driftwatchDockerHostLoop = undefined;
      await running;
      await closeDb(db);
    },
  };
  g.__driftwatchDockerHostLoop = loop;
  return loop;
}

/** Run this process's watches now (a watch just turned on is due at once), without waiting for it. */
export function runDockerHostWatchesSoon(): void {
  void g.__driftwatchDockerHostLoop?.runOnce();
}
