import { z } from "zod";
import { nameParams } from "../schemas/common";
import { askGateSchema, gateAnswerSchema } from "@/lib/services/gate/schemas";
import { defineOperation } from "../operation";

export const admissionAddressSchema = z
  .object({
    url: z.string().meta({ description: "`{base_url}/admission/<key id>.<environment>.<signature>`: needs no sign-in; Kubernetes requires it to be https" }),
    webhook: z.record(z.string(), z.unknown()).meta({ description: "A ready `admissionregistration.k8s.io/v1` ValidatingWebhookConfiguration (sideEffects None, admissionReviewVersions [v1], failurePolicy Ignore unless asked)" }),
  })
  .meta({ id: "AdmissionAddress" });

const admissionReviewDoc = z
  .object({ apiVersion: z.literal("admission.k8s.io/v1"), kind: z.literal("AdmissionReview") })
  .catchall(z.unknown())
  .meta({ id: "AdmissionReview", description: "Kubernetes' AdmissionReview: `request` in, `response` (uid, allowed, status.message on refusal, warnings in audit mode) out" });

export const gateOps = {
  askGate: defineOperation({
    id: "askGate", method: "POST", path: "/api/v1/gate", summary: "Ask the promotion gate whether a version may run in an environment", tags: ["gate"], auth: "viewer",
    description: [
      "A version may run in an environment when it has run in the previous environment (on any of its targets) for at least the environment's `soak`, summed over its runs there with overlaps counted once, unless `refuse_eol` is set and its cycle's end of life has passed. A version that ran in the environment before (a rollback) is always allowed; the first environment needs nothing. A service Driftwatch has never seen, or an image whose exact version cannot be worked out, follows `unknown`.",
      "Give `version`, or `image` (mapped to its exact version as the agent's reports are: a digest resolved upstream or seen before, a version tag, a line tag that moves only through its digest).",
      "`audit` mode answers `allowed: true` with the reasons; `off` always allows. Every answer is kept in the audit log and counted in `driftwatch_gate_decisions_total`.",
    ].join("\n\n"),
    body: askGateSchema,
    responses: { 200: { description: "The decision", schema: gateAnswerSchema } },
  }),
  getEnvironmentAdmission: defineOperation({
    id: "getEnvironmentAdmission", method: "GET", path: "/api/v1/environments/{name}/admission", summary: "The environment's Kubernetes admission webhook", tags: ["gate"], auth: "admin",
    description: "The signed webhook address (signed with the badge key: `driftwatch badges reset` invalidates it) and a ValidatingWebhookConfiguration to apply. `failure_policy=Fail` makes the cluster refuse workloads while Driftwatch cannot answer; `namespaces` limits it to those namespaces (default: all but kube-system, kube-public and kube-node-lease).",
    params: nameParams,
    query: z.object({
      failure_policy: z.enum(["Ignore", "Fail"]).optional(),
      namespaces: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(,[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, { message: "must be namespace names separated by commas" }).max(2000).optional(),
    }),
    responses: { 200: { description: "The address and the webhook configuration", schema: admissionAddressSchema } },
  }),
  reviewAdmission: defineOperation({
    id: "reviewAdmission", method: "POST", path: "/admission/{signed}", summary: "Kubernetes admission review (validating webhook)", tags: ["gate"], auth: "public",
    description: "Pods, Deployments, StatefulSets, DaemonSets, ReplicaSets, Jobs and CronJobs: every container and init container is judged by the gate of the environment the signed address names. A wrong or stale address answers 404; a body that is not an AdmissionReview, 400.",
    params: z.object({ signed: z.string() }),
    body: admissionReviewDoc,
    responses: { 200: { description: "The review with its response", schema: admissionReviewDoc } },
  }),
};
