// AdmissionReview v1 bodies as the Kubernetes API server sends them to a
// validating webhook: the same envelope and request fields (uid, kind,
// resource, requestKind, userInfo, options), with a real object of each kind.
import { randomUUID } from "node:crypto";

type Container = { name: string; image: string; restartPolicy?: string };
export type PodTemplate = { labels?: Record<string, string>; annotations?: Record<string, string>; containers: Container[]; initContainers?: Container[] };

const RESOURCES: Record<string, { group: string; version: string; resource: string }> = {
  Pod: { group: "", version: "v1", resource: "pods" },
  Deployment: { group: "apps", version: "v1", resource: "deployments" },
  StatefulSet: { group: "apps", version: "v1", resource: "statefulsets" },
  DaemonSet: { group: "apps", version: "v1", resource: "daemonsets" },
  ReplicaSet: { group: "apps", version: "v1", resource: "replicasets" },
  Job: { group: "batch", version: "v1", resource: "jobs" },
  CronJob: { group: "batch", version: "v1", resource: "cronjobs" },
};

function podSpec(t: PodTemplate) {
  const container = (c: Container) => ({
    name: c.name, image: c.image, ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}),
    resources: {}, terminationMessagePath: "/dev/termination-log", terminationMessagePolicy: "File", imagePullPolicy: "IfNotPresent",
  });
  return {
    containers: t.containers.map(container),
    ...(t.initContainers ? { initContainers: t.initContainers.map(container) } : {}),
    restartPolicy: "Always", terminationGracePeriodSeconds: 30, dnsPolicy: "ClusterFirst", securityContext: {}, schedulerName: "default-scheduler",
  };
}

/** The object of `kind` named `name` whose pods run `t`. */
export function workloadObject(kind: string, name: string, namespace: string, t: PodTemplate, owner?: { kind: string; name: string }): Record<string, unknown> {
  const r = RESOURCES[kind]!;
  const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
  const metadata = {
    name, namespace, uid: randomUUID(), creationTimestamp: null, labels: t.labels ?? {}, ...(t.annotations ? { annotations: t.annotations } : {}),
    ...(owner ? { ownerReferences: [{ apiVersion: "apps/v1", kind: owner.kind, name: owner.name, uid: randomUUID(), controller: true, blockOwnerDeletion: true }] } : {}),
  };
  const template = { metadata: { creationTimestamp: null, labels: t.labels ?? {}, ...(t.annotations ? { annotations: t.annotations } : {}) }, spec: podSpec(t) };
  const selector = { matchLabels: t.labels ?? {} };
  switch (kind) {
    case "Pod": return { kind, apiVersion, metadata, spec: podSpec(t), status: {} };
    case "Deployment": return { kind, apiVersion, metadata, spec: { replicas: 2, selector, template, strategy: { type: "RollingUpdate" }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 }, status: {} };
    case "StatefulSet": return { kind, apiVersion, metadata, spec: { replicas: 1, selector, template, serviceName: name, podManagementPolicy: "OrderedReady" }, status: {} };
    case "DaemonSet": return { kind, apiVersion, metadata, spec: { selector, template, updateStrategy: { type: "RollingUpdate" } }, status: {} };
    case "ReplicaSet": return { kind, apiVersion, metadata, spec: { replicas: 2, selector, template }, status: {} };
    case "Job": return { kind, apiVersion, metadata, spec: { backoffLimit: 6, template: { ...template, spec: { ...template.spec, restartPolicy: "Never" } } }, status: {} };
    case "CronJob": return { kind, apiVersion, metadata, spec: { schedule: "0 3 * * *", concurrencyPolicy: "Allow", jobTemplate: { metadata: { creationTimestamp: null }, spec: { template: { ...template, spec: { ...template.spec, restartPolicy: "OnFailure" } } } } }, status: {} };
    default: throw new Error(`no ${kind}`);
  }
}

/** The review the API server posts for creating `object`. */
export function admissionReview(object: Record<string, unknown>, operation: "CREATE" | "UPDATE" | "DELETE" = "CREATE"): Record<string, unknown> {
  const kind = object.kind as string;
  const r = RESOURCES[kind]!;
  const meta = object.metadata as { name: string; namespace: string };
  return {
    kind: "AdmissionReview",
    apiVersion: "admission.k8s.io/v1",
    request: {
      uid: randomUUID(),
      kind: { group: r.group, version: r.version, kind },
      resource: { group: r.group, version: r.version, resource: r.resource },
      requestKind: { group: r.group, version: r.version, kind },
      requestResource: { group: r.group, version: r.version, resource: r.resource },
      name: meta.name,
      namespace: meta.namespace,
      operation,
      userInfo: { username: "system:serviceaccount:ci:deployer", uid: randomUUID(), groups: ["system:serviceaccounts", "system:serviceaccounts:ci", "system:authenticated"] },
      object: operation === "DELETE" ? null : object,
      oldObject: operation === "CREATE" ? null : object,
      dryRun: false,
      options: { kind: operation === "DELETE" ? "DeleteOptions" : operation === "CREATE" ? "CreateOptions" : "UpdateOptions", apiVersion: "meta.k8s.io/v1", fieldManager: "kubectl-client-side-apply" },
    },
  };
}
