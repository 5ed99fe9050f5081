// Which images an admission review asks about, and under which service: the
// names the agent gives the pods these workloads make (lib/adapters/runtimes/kubernetes/transform.ts).
import { describe, expect, it } from "vitest";
import { admissionReviewSchema, admissionWorkload, AdmissionShapeError, type AdmissionReview } from "@/lib/adapters/runtimes/kubernetes/admission";
import { admissionReview, workloadObject, type PodTemplate } from "@/tests/support/admission-review";

const review = (body: Record<string, unknown>): AdmissionReview => admissionReviewSchema.parse(body);
const plain: PodTemplate = { containers: [{ name: "app", image: "ghcr.io/acme/web:2.4.0" }] };

describe("admissionWorkload", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["a Deployment without labels: its own name", workloadObject("Deployment", "storefront", "shop", plain), "storefront"],
    ["a StatefulSet", workloadObject("StatefulSet", "db", "shop", plain), "db"],
    ["a DaemonSet", workloadObject("DaemonSet", "node-agent", "shop", plain), "node-agent"],
    ["a Job", workloadObject("Job", "migrate-42", "shop", plain), "migrate-42"],
    ["a CronJob", workloadObject("CronJob", "backup", "shop", plain), "backup"],
    ["a ReplicaSet owned by a Deployment: the Deployment", workloadObject("ReplicaSet", "web-5d8f7c9b6", "shop", plain, { kind: "Deployment", name: "web" }), "web"],
    ["a bare ReplicaSet", workloadObject("ReplicaSet", "web-rs", "shop", plain), "web-rs"],
    ["a Pod of a ReplicaSet: the Deployment, by its pod-template-hash", workloadObject("Pod", "web-5d8f7c9b6-x2x4k", "shop", { ...plain, labels: { "pod-template-hash": "5d8f7c9b6" } }, { kind: "ReplicaSet", name: "web-5d8f7c9b6" }), "web"],
    ["app.kubernetes.io/name wins over the owner", workloadObject("Deployment", "storefront", "shop", { ...plain, labels: { "app.kubernetes.io/name": "web", app: "other" } }), "web"],
    ["app when there is no app.kubernetes.io/name", workloadObject("Deployment", "storefront", "shop", { ...plain, labels: { app: "shop-web" } }), "shop-web"],
    ["the driftwatch.io/service annotation wins over everything", workloadObject("Deployment", "storefront", "shop", { ...plain, labels: { "app.kubernetes.io/name": "x" }, annotations: { "driftwatch.io/service": "web" } }), "web"],
  ])("%s", (_, object, service) => {
    const w = admissionWorkload(review(admissionReview(object)));
    expect(w).toMatchObject({ kind: "checked", images: [{ service, container: "app", main: true, image: "ghcr.io/acme/web:2.4.0" }] });
  });

  it("lists every container and init container; the main one is the first that is not a known sidecar, or the annotated one", () => {
    const w = admissionWorkload(review(admissionReview(workloadObject("Deployment", "web", "shop", {
      containers: [{ name: "istio-proxy", image: "istio/proxyv2:1.22.0" }, { name: "web", image: "ghcr.io/acme/web:2.4.0" }],
      initContainers: [{ name: "migrate", image: "ghcr.io/acme/web-migrate:2.4.0" }, { name: "log", image: "fluent/fluent-bit:3.1", restartPolicy: "Always" }],
    }))));
    expect(w.kind === "checked" && w.images.map((i) => [i.container, i.main, i.image])).toEqual([
      ["istio-proxy", false, "istio/proxyv2:1.22.0"],
      ["web", true, "ghcr.io/acme/web:2.4.0"],
      ["migrate", false, "ghcr.io/acme/web-migrate:2.4.0"],
      ["log", false, "fluent/fluent-bit:3.1"],
    ]);
    const annotated = admissionWorkload(review(admissionReview(workloadObject("Pod", "web", "shop", {
      annotations: { "driftwatch.io/main-container": "side" }, containers: [{ name: "web", image: "a:1.0.0" }, { name: "side", image: "b:2.0.0" }],
    }))));
    expect(annotated.kind === "checked" && annotated.images.filter((i) => i.main).map((i) => i.container)).toEqual(["side"]);
  });

  it("skips deletions and kinds that make no pods", () => {
    expect(admissionWorkload(review(admissionReview(workloadObject("Deployment", "web", "shop", plain), "DELETE")))).toEqual({ kind: "skipped", why: "DELETE needs no decision" });
    const svc = admissionReview(workloadObject("Pod", "web", "shop", plain));
    (svc.request as { kind: object }).kind = { group: "", version: "v1", kind: "Service" };
    expect(admissionWorkload(review(svc)).kind).toBe("skipped");
  });

  it("names the field of an object that is not its kind", () => {
    const body = admissionReview(workloadObject("Deployment", "web", "shop", plain));
    (body.request as { object: unknown }).object = { metadata: { name: "web" }, spec: { template: { spec: { containers: "nginx" } } } };
    expect(() => admissionWorkload(review(body))).toThrow(AdmissionShapeError);
    try {
      admissionWorkload(review(body));
    } catch (err) {
      expect((err as AdmissionShapeError).pointer).toBe("/request/object/spec/template/spec/containers");
    }
  });
});
