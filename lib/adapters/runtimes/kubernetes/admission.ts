// Kubernetes admission (admission.k8s.io/v1): the review a ValidatingWebhook
// receives, the workloads whose pod templates it carries, and the answer's
// shape. Service names come from the same rule the agent applies to running
// pods (serviceOf), so a decision is about the service its history is filed under.
import { z } from "zod";
import { mainContainerOf, serviceOf } from "./transform";
import type { Pod } from "./schema";

const stringMap = z.record(z.string(), z.string()).nullish().transform((v) => v ?? {});
const containers = z.array(z.object({ name: z.string(), image: z.string().optional(), restartPolicy: z.string().optional() }).loose()).nullish().transform((v) => v ?? []);
const meta = z.object({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  labels: stringMap,
  annotations: stringMap,
  ownerReferences: z.array(z.object({ kind: z.string(), name: z.string(), controller: z.boolean().optional() }).loose()).nullish().transform((v) => v ?? []),
}).loose();
const podSpec = z.object({ containers, initContainers: containers }).loose();
const template = z.object({ metadata: meta.optional().transform((v) => v ?? meta.parse({})), spec: podSpec }).loose();

export const ADMISSION_KINDS = ["Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob"] as const;
export type AdmissionKind = (typeof ADMISSION_KINDS)[number];

export const admissionReviewSchema = z.object({
  apiVersion: z.literal("admission.k8s.io/v1"),
  kind: z.literal("AdmissionReview"),
  request: z.object({
    uid: z.string().min(1).max(128),
    kind: z.object({ group: z.string(), version: z.string(), kind: z.string() }).loose(),
    namespace: z.string().optional(),
    operation: z.string(),
    object: z.unknown().optional(),
    dryRun: z.boolean().optional(),
  }).loose(),
}).loose();

export type AdmissionReview = z.infer<typeof admissionReviewSchema>;

const objectSchemas = {
  Pod: z.object({ metadata: meta, spec: podSpec }).loose(),
  Deployment: z.object({ metadata: meta, spec: z.object({ template }).loose() }).loose(),
  StatefulSet: z.object({ metadata: meta, spec: z.object({ template }).loose() }).loose(),
  DaemonSet: z.object({ metadata: meta, spec: z.object({ template }).loose() }).loose(),
  ReplicaSet: z.object({ metadata: meta, spec: z.object({ template }).loose() }).loose(),
  Job: z.object({ metadata: meta, spec: z.object({ template }).loose() }).loose(),
  CronJob: z.object({ metadata: meta, spec: z.object({ jobTemplate: z.object({ spec: z.object({ template }).loose() }).loose() }).loose() }).loose(),
} satisfies Record<AdmissionKind, z.ZodType>;

/** One container's image to judge: the main container is judged on the service's main history, others on their own container's. */
export type AdmissionImage = { service: string; container: string; main: boolean; image: string };

export type AdmissionWorkload =
  | { kind: "checked"; objectKind: AdmissionKind; name: string; images: AdmissionImage[] }
  | { kind: "skipped"; why: string };

export class AdmissionShapeError extends Error {
  constructor(readonly pointer: string, message: string) {
    super(message);
  }
}

/** The images a review asks about, or why it needs no decision (a kind we do not judge, a deletion). */
export function admissionWorkload(review: AdmissionReview): AdmissionWorkload {
  const req = review.request;
  const kind = ADMISSION_KINDS.find((k) => k === req.kind.kind);
  if (!kind) return { kind: "skipped", why: `${req.kind.kind} is not a workload the gate judges` };
  if (req.operation !== "CREATE" && req.operation !== "UPDATE") return { kind: "skipped", why: `${req.operation} needs no decision` };
  const parsed = objectSchemas[kind].safeParse(req.object);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const pointer = "/request/object" + (issue ? issue.path.map((p) => `/${String(p)}`).join("") : "");
    throw new AdmissionShapeError(pointer, `request.object is not a ${kind}: ${issue?.message ?? "invalid"}`);
  }
  const object = parsed.data as { metadata: z.infer<typeof meta>; spec: Record<string, unknown> };
  const namespace = object.metadata.namespace ?? req.namespace ?? "default";
  const name = object.metadata.name ?? (object.metadata.generateName ?? "").replace(/-$/, "");
  let pod: Pod;
  const replicaSetOwners = new Map<string, string>();
  if (kind === "Pod") {
    pod = toPod(object.metadata, object.spec as z.infer<typeof podSpec>, namespace, name, object.metadata.ownerReferences);
  } else {
    const t = (kind === "CronJob" ? (object.spec as { jobTemplate: { spec: { template: z.infer<typeof template> } } }).jobTemplate.spec.template : (object.spec as { template: z.infer<typeof template> }).template);
    // The pods it makes are owned by it (a Deployment's through a ReplicaSet: the agent names them by the Deployment).
    const owner = kind === "ReplicaSet" ? (object.metadata.ownerReferences.find((r) => r.kind === "Deployment")?.name ?? null) : null;
    if (owner) replicaSetOwners.set(`${namespace}/${name}`, owner);
    pod = toPod(t.metadata, t.spec, namespace, "", [{ kind, name, controller: true }]);
  }
  const service = serviceOf(pod, replicaSetOwners);
  const main = mainContainerOf(pod);
  const spec = kind === "Pod" ? (object.spec as z.infer<typeof podSpec>) : pod.spec;
  const images: AdmissionImage[] = [];
  for (const c of [...spec.containers, ...spec.initContainers]) {
    if (!c.image) continue;
    images.push({ service, container: c.name, main: c.name === main, image: c.image });
  }
  return { kind: "checked", objectKind: kind, name, images };
}

function toPod(
  m: z.infer<typeof meta>, spec: z.infer<typeof podSpec>, namespace: string, name: string,
  ownerReferences: { kind: string; name: string; controller?: boolean }[],
): Pod {
  return {
    metadata: { name, namespace, labels: m.labels, annotations: m.annotations, ownerReferences: ownerReferences.map((r) => ({ kind: r.kind, name: r.name, controller: r.controller })) },
    spec: {
      containers: spec.containers.map((c) => ({ name: c.name, image: c.image, restartPolicy: c.restartPolicy })),
      initContainers: spec.initContainers.map((c) => ({ name: c.name, image: c.image, restartPolicy: c.restartPolicy })),
      imagePullSecrets: [],
    },
    status: { conditions: [], containerStatuses: [], initContainerStatuses: [] },
  };
}

export type AdmissionAnswer = { allowed: boolean; message: string | null; warnings: string[] };

/** The AdmissionReview to send back (status.code 403 on a refusal, as the API server expects). */
export function admissionResponse(uid: string, answer: AdmissionAnswer): Record<string, unknown> {
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    response: {
      uid,
      allowed: answer.allowed,
      ...(answer.allowed ? {} : { status: { code: 403, reason: "Forbidden", message: answer.message ?? "Refused by the Driftwatch gate." } }),
      ...(answer.warnings.length > 0 ? { warnings: answer.warnings } : {}),
    },
  };
}

/** Kubernetes refuses webhook names of fewer than three DNS labels; environment names may hold characters labels do not. */
export function webhookName(environment: string): string {
  const label = environment.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 50) || "env";
  return `${label}.gate.driftwatch.io`;
}

/** A ValidatingWebhookConfiguration that sends every pod-making workload of the selected namespaces to `url`. */
export function validatingWebhookConfiguration(input: {
  environment: string; url: string; failurePolicy: "Ignore" | "Fail"; namespaces: string[] | null; caBundle?: string;
}): Record<string, unknown> {
  const name = webhookName(input.environment);
  const namespaceSelector = input.namespaces && input.namespaces.length > 0
    ? { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: input.namespaces }] }
    : { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "NotIn", values: ["kube-system", "kube-public", "kube-node-lease"] }] };
  const ops = ["CREATE", "UPDATE"];
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name: `driftwatch-gate-${name.split(".")[0]}`, labels: { "app.kubernetes.io/managed-by": "driftwatch" } },
    webhooks: [{
      name,
      admissionReviewVersions: ["v1"],
      sideEffects: "None",
      failurePolicy: input.failurePolicy,
      timeoutSeconds: 5,
      matchPolicy: "Equivalent",
      clientConfig: { url: input.url, ...(input.caBundle ? { caBundle: input.caBundle } : {}) },
      namespaceSelector,
      rules: [
        { apiGroups: [""], apiVersions: ["v1"], operations: ops, resources: ["pods"], scope: "Namespaced" },
        { apiGroups: ["apps"], apiVersions: ["v1"], operations: ops, resources: ["deployments", "statefulsets", "daemonsets", "replicasets"], scope: "Namespaced" },
        { apiGroups: ["batch"], apiVersions: ["v1"], operations: ops, resources: ["jobs", "cronjobs"], scope: "Namespaced" },
      ],
    }],
  };
}
