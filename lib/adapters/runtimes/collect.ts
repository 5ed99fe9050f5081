// One pass over every configured runtime: one AgentReport per target. A source that fails is named in
// `failures` and the others still report. The agent runs it, and so does the server watching its own Docker host.
import { collectDocker, type DockerCollectOptions } from "./docker/collect-docker";
import { collectKubernetes, type KubernetesCollectOptions } from "./kubernetes/collect-kubernetes";
import type { InClusterOptions } from "./kubernetes/connection";
import { collectNomad, type NomadCollectOptions } from "./nomad/collect-nomad";
import { collectSwarm, type SwarmCollectOptions } from "./swarm/collect-swarm";
import { combineProviders, dockerConfigProvider, type CredentialsProvider } from "./credentials";
import { readComposeFromGit } from "@/lib/adapters/compose-git/read-compose-from-git";
import { agentReportSchema, withoutUserinfo, type AgentReport, type RegistryResult, type TargetKind, type Workload } from "@/lib/domain/agent-report";

export type CollectOptions = {
  /** The environment reported for (the agent's `--environment`). */
  environment: string;
  docker?: DockerCollectOptions;
  /** Path of a kubeconfig file; or `inCluster` for the pod's service account. */
  kubeconfig?: string;
  kubeContext?: string;
  inCluster?: InClusterOptions;
  /** Kubernetes namespace → environment; unmapped namespaces report to `environment`. */
  namespaces?: Record<string, string>;
  kubernetes?: Pick<KubernetesCollectOptions, "cluster" | "listNamespaces" | "includeSystemNamespaces" | "timeoutMs">;
  swarm?: SwarmCollectOptions;
  nomad?: NomadCollectOptions;
  /** A Docker `config.json` whose `auths` serve private registry lookups. */
  dockerConfig?: string;
  /** Compose files in a Git repository the agent can read (private ones too): reported as declarations. */
  composeGit?: { url: string; branch: string; paths: string[]; cacheDir: string; name?: string };
};

export type SourceName = TargetKind;

export type SourceFailure = { source: SourceName | "registry"; message: string };

export type CollectResult = {
  reports: AgentReport[];
  failures: SourceFailure[];
  /** Every source that was asked (a configuration with none cannot report). */
  sources: SourceName[];
  credentials: CredentialsProvider;
};

/** Private-registry lookups for one report's workloads (done by the registry adapters). */
export type LookupRegistries = (workloads: Workload[], credentials: CredentialsProvider) => Promise<RegistryResult[]>;

export type CollectDeps = { now?: () => Date; lookupRegistries?: LookupRegistries };

type Observation = { environment: string; target: AgentReport["target"]; workloads: Workload[] };

export function configuredSources(opts: CollectOptions): SourceName[] {
  const out: SourceName[] = [];
  if (opts.docker) out.push("docker");
  if (opts.kubeconfig || opts.inCluster) out.push("kubernetes");
  if (opts.swarm) out.push("swarm");
  if (opts.nomad) out.push("nomad");
  if (opts.composeGit) out.push("compose_git");
  return out;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).split("\n")[0] ?? "failed";

export async function collect(opts: CollectOptions, deps: CollectDeps = {}): Promise<CollectResult> {
  const now = deps.now ?? (() => new Date());
  const sources = configuredSources(opts);
  const providers: CredentialsProvider[] = opts.dockerConfig ? [dockerConfigProvider(opts.dockerConfig)] : [];
  const failures: SourceFailure[] = [];

  const run = async (source: SourceName): Promise<{ observations: Observation[]; at: Date }> => {
    switch (source) {
      case "docker": {
        const o = await collectDocker(opts.docker ?? {});
        return { observations: [{ environment: opts.environment, ...o }], at: now() };
      }
      case "swarm": {
        const o = await collectSwarm(opts.swarm ?? {});
        return { observations: [{ environment: opts.environment, ...o }], at: now() };
      }
      case "nomad": {
        if (!opts.nomad) return { observations: [], at: now() };
        const o = await collectNomad(opts.nomad);
        return { observations: [{ environment: opts.environment, ...o }], at: now() };
      }
      case "compose_git": {
        const c = opts.composeGit!;
        const compose = await readComposeFromGit({ url: c.url, branch: c.branch, paths: c.paths }, { cacheDir: c.cacheDir });
        // Declared versions start when the commit declaring them was made.
        const since = compose.committedAt.toISOString();
        const workloads: Workload[] = compose.services.map((s) => ({
          service: s.service, container: s.service, main: true, image: s.image, digest: null, platform_digest: null, platform: null, since,
        }));
        return { observations: [{ environment: opts.environment, target: { name: c.name ?? `compose@${opts.environment}`, kind: "compose_git", source: { repository_url: withoutUserinfo(c.url), branch: c.branch, paths: c.paths } }, workloads }], at: now() };
      }
      case "kubernetes": {
        const k = await collectKubernetes({
          ...opts.kubernetes,
          environment: opts.environment,
          kubeconfig: opts.kubeconfig,
          context: opts.kubeContext,
          inCluster: opts.inCluster,
          namespaces: opts.namespaces,
        });
        providers.push(k.credentials);
        for (const e of k.helmErrors) failures.push({ source, message: `Helm release record ${e}` });
        return { observations: k.observations, at: now() };
      }
    }
  };

  const settled = await Promise.all(
    sources.map(async (source) => {
      try {
        return await run(source);
      } catch (err) {
        failures.push({ source, message: message(err) });
        return { observations: [], at: now() };
      }
    }),
  );

  const credentials = combineProviders(providers);
  const reports: AgentReport[] = [];
  for (const { observations, at } of settled) {
    for (const o of observations) {
      let registry_results: RegistryResult[] = [];
      if (deps.lookupRegistries) {
        try {
          // Charts are checked by the server from their repository, never looked up as images.
          registry_results = await deps.lookupRegistries(o.workloads.filter((w) => w.kind !== "helm_release"), credentials);
        } catch (err) {
          failures.push({ source: "registry", message: `${o.target.name}: ${message(err)}` });
        }
      }
      const parsed = agentReportSchema.safeParse({ environment: o.environment, target: o.target, observed_at: at.toISOString(), workloads: o.workloads, registry_results });
      if (parsed.success) reports.push(parsed.data);
      else failures.push({ source: o.target.kind, message: `${o.target.name}: report is invalid at ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}` });
    }
  }
  return { reports, failures, sources, credentials };
}
