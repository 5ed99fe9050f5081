// What runs in one Kubernetes cluster, as one observation per environment
// (namespaces map to environments). Pods are listed cluster-wide, or per
// namespace where the agent's RBAC is namespaced.
import type { z } from "zod";
import type { Workload } from "@/lib/domain/agent-report";
import { AppError } from "@/lib/domain/errors";
import type { CredentialsProvider } from "../credentials";
import { requestJson, type HttpEndpoint } from "../http-json";
import { normaliseArch } from "../image-ref";
import { connectionFromKubeconfigFile, inClusterConnection, type InClusterOptions, type KubeConnection } from "./connection";
import { pullSecretProvider } from "./pull-secrets";
import { deployedReleases, HELM_RELEASE_TYPE } from "./helm-releases";
import { nodeListSchema, podListSchema, replicaSetListSchema, secretListSchema, type Pod } from "./schema";
import { ANNOTATIONS, environmentOf, podsToWorkloads, type Platform } from "./transform";

export type KubernetesCollectOptions = {
  /** The agent's `--environment`: where unmapped namespaces go. */
  environment: string;
  kubeconfig?: string;
  context?: string;
  inCluster?: InClusterOptions;
  /** namespace → environment */
  namespaces?: Record<string, string>;
  /** List only these namespaces (namespaced RBAC); default: the whole cluster. */
  listNamespaces?: string[];
  includeSystemNamespaces?: boolean;
  /** Names the cluster in target names; default: the kubeconfig context, or the environment in-cluster. */
  cluster?: string;
  timeoutMs?: number;
};

export type KubernetesObservation = { environment: string; target: { name: string; kind: "kubernetes" }; workloads: Workload[] };

/** `helmErrors`: release records that could not be read (their releases are left out). */
export type KubernetesCollection = { observations: KubernetesObservation[]; credentials: CredentialsProvider; helmErrors: string[] };

const PAGE = 500;

type ListPage<T> = { metadata: { continue?: string | null }; items: T[] };

/** Every item of a list, following `metadata.continue` page by page. */
async function listAll<T>(endpoint: HttpEndpoint, basePath: string, schema: z.ZodType<ListPage<T>>, query = ""): Promise<T[]> {
  const items: T[] = [];
  let cont: string | null | undefined;
  do {
    const params = new URLSearchParams(query);
    params.set("limit", String(PAGE));
    if (cont) params.set("continue", cont);
    const page = await requestJson(endpoint, `${basePath}?${params.toString()}`, schema);
    items.push(...page.items);
    cont = page.metadata.continue;
  } while (cont);
  return items;
}

const scoped = (namespaces: string[] | undefined, group: string, resource: string) =>
  namespaces?.length ? namespaces.map((ns) => `${group}/namespaces/${encodeURIComponent(ns)}/${resource}`) : [`${group}/${resource}`];

export function kubeConnection(opts: KubernetesCollectOptions): KubeConnection {
  if (opts.kubeconfig) return connectionFromKubeconfigFile(opts.kubeconfig, { context: opts.context, timeoutMs: opts.timeoutMs });
  if (opts.inCluster) return inClusterConnection(opts.inCluster, opts.timeoutMs);
  throw new AppError("invalid_input", "Kubernetes needs a kubeconfig or in-cluster settings.");
}

/** Target name: `kubernetes@<cluster>` for the agent's environment, `kubernetes@<cluster>/<env>` for mapped ones (names are unique per workspace). */
export const kubernetesTargetName = (cluster: string, environment: string, defaultEnvironment: string) =>
  environment === defaultEnvironment ? `kubernetes@${cluster}` : `kubernetes@${cluster}/${environment}`;

function needsReplicaSets(pods: Pod[]): boolean {
  return pods.some((p) => {
    const { labels, annotations } = p.metadata;
    const named = annotations[ANNOTATIONS.service] || labels[ANNOTATIONS.service] || labels["app.kubernetes.io/name"] || labels["app"];
    return !named && p.metadata.ownerReferences.some((r) => r.kind === "ReplicaSet");
  });
}

/** Optional reads: without permission (or on error) the adapter falls back rather than failing. */
async function optional<T>(p: Promise<T>, fallback: T): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof AppError && (err.code === "forbidden" || err.code === "not_found")) return fallback;
    throw err;
  }
}

export async function collectKubernetes(opts: KubernetesCollectOptions, connection: KubeConnection = kubeConnection(opts)): Promise<KubernetesCollection> {
  const { endpoint } = connection;
  const podPaths = scoped(opts.listNamespaces, "/api/v1", "pods");
  const pods = (await Promise.all(podPaths.map((p) => listAll(endpoint, p, podListSchema, "fieldSelector=status.phase=Running")))).flat();

  const replicaSetOwners = new Map<string, string>();
  if (needsReplicaSets(pods)) {
    const rsPaths = scoped(opts.listNamespaces, "/apis/apps/v1", "replicasets");
    const sets = await optional(Promise.all(rsPaths.map((p) => listAll(endpoint, p, replicaSetListSchema))).then((l) => l.flat()), []);
    for (const rs of sets) {
      const owner = rs.metadata.ownerReferences.find((r) => r.kind === "Deployment");
      if (owner) replicaSetOwners.set(`${rs.metadata.namespace ?? ""}/${rs.metadata.name}`, owner.name);
    }
  }

  const nodeItems = pods.length ? await optional(listAll(endpoint, "/api/v1/nodes", nodeListSchema), []) : [];
  const nodes = new Map<string, Platform>();
  for (const n of nodeItems) {
    const info = n.status.nodeInfo;
    if (info) nodes.set(n.metadata.name, { os: info.operatingSystem, arch: normaliseArch(info.architecture) });
  }

  const namespaces = opts.namespaces ?? {};
  const environments = new Set([opts.environment, ...Object.values(namespaces)]);
  const envCtx = { defaultEnvironment: opts.environment, namespaces, includeSystemNamespaces: opts.includeSystemNamespaces };
  const byEnv = podsToWorkloads(pods, { ...envCtx, replicaSetOwners, nodes }, environments);

  // Helm's release records: only deployed ones are listed (Helm keeps the status in a label too), and
  // an agent without read access to Secrets reports no releases.
  const secretPaths = scoped(opts.listNamespaces, "/api/v1", "secrets");
  const selectors = `labelSelector=${encodeURIComponent("owner=helm,status=deployed")}&fieldSelector=${encodeURIComponent(`type=${HELM_RELEASE_TYPE}`)}`;
  const secrets = await optional(Promise.all(secretPaths.map((p) => listAll(endpoint, p, secretListSchema, selectors))).then((l) => l.flat()), []);
  const { releases, errors: helmErrors } = deployedReleases(secrets);
  for (const { namespace, workload } of releases) {
    const environment = environmentOf(namespace, envCtx);
    if (!environment) continue;
    const list = byEnv.get(environment) ?? [];
    list.push(workload);
    byEnv.set(environment, list);
  }
  const cluster = opts.cluster ?? connection.context ?? opts.environment;
  const observations = [...byEnv].map(([environment, workloads]) => ({
    environment,
    target: { name: kubernetesTargetName(cluster, environment, opts.environment), kind: "kubernetes" as const },
    workloads,
  }));
  return { observations, credentials: pullSecretProvider(endpoint, pods), helmErrors };
}
