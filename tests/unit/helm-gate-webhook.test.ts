// The chart's promotion-gate webhook (gateWebhook.*): off by default; on, a
// ValidatingWebhookConfiguration valid under the Kubernetes schema and strict
// field check, with a caBundle or cert-manager's CA injection.
import { beforeAll, describe, expect, it } from "vitest";
import { strictFieldErrors } from "@/tests/support/k8s-strict";
import { kubeTools } from "@/tests/support/kube-tools";
import { helm, kindsOf, objectOf, parseObjects, renderArgs, renderChart, runTool, renderText, type K8sObject } from "@/tests/support/helm-chart";

const URL = "https://driftwatch.example.com/admission/kid.cHJvZHVjdGlvbg.sig";
type Webhook = K8sObject & { webhooks: Record<string, any>[] };

beforeAll(async () => {
  await kubeTools();
}, 120_000);

describe("gateWebhook", () => {
  it("is off by default", async () => {
    expect(kindsOf(await renderChart()).some((k) => k.startsWith("ValidatingWebhookConfiguration/"))).toBe(false);
  });

  it("renders a webhook configuration valid under the Kubernetes schema, with a caBundle", async () => {
    const text = await renderText({ set: ["gateWebhook.enabled=true", `gateWebhook.url=${URL}`, "gateWebhook.caBundle=Y2E=", "gateWebhook.namespaces={shop,payments}"] });
    const objects = parseObjects(text);
    const hook = objectOf<Webhook>(objects, "ValidatingWebhookConfiguration", "dw-driftwatch-gate");
    const mod = (await import("kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration")) as any;
    expect(() => new mod.ValidatingWebhookConfiguration(hook).validate()).not.toThrow();
    expect(strictFieldErrors([hook])).toEqual([]);
    expect(hook.webhooks[0]).toMatchObject({
      admissionReviewVersions: ["v1"], sideEffects: "None", failurePolicy: "Ignore", timeoutSeconds: 5,
      clientConfig: { url: URL, caBundle: "Y2E=" },
      namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: ["shop", "payments"] }] },
    });
    expect(hook.webhooks[0]!.rules.flatMap((r: { resources: string[] }) => r.resources)).toEqual(["pods", "deployments", "statefulsets", "daemonsets", "replicasets", "jobs", "cronjobs"]);
    const kubectl = await runTool("kubectl", ["label", "--local", "-f", "-", "checked=true", "-o", "name"], text);
    expect(kubectl.stderr).toBe("");
  });

  it("leaves the CA to cert-manager when asked, and can fail closed", async () => {
    const objects = await renderChart({ set: ["gateWebhook.enabled=true", `gateWebhook.url=${URL}`, "gateWebhook.certManager.injectFrom=driftwatch/driftwatch-tls", "gateWebhook.failurePolicy=Fail"] });
    const hook = objectOf<Webhook>(objects, "ValidatingWebhookConfiguration", "dw-driftwatch-gate");
    expect(hook.metadata).toMatchObject({ annotations: { "cert-manager.io/inject-ca-from": "driftwatch/driftwatch-tls" } });
    expect(hook.webhooks[0]!.clientConfig).toEqual({ url: URL });
    expect(hook.webhooks[0]!.failurePolicy).toBe("Fail");
    expect(hook.webhooks[0]!.namespaceSelector.matchExpressions[0]).toMatchObject({ operator: "NotIn" });
  });

  it("refuses to render without an https address, or with a bad failure policy", async () => {
    const none = await helm(["template", ...renderArgs({ set: ["gateWebhook.enabled=true"] })]);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain("gateWebhook.enabled=true needs gateWebhook.url");
    const plain = await helm(["template", ...renderArgs({ set: ["gateWebhook.enabled=true", "gateWebhook.url=http://driftwatch/admission/x"] })]);
    expect(plain.code).not.toBe(0);
    const policy = await helm(["template", ...renderArgs({ set: ["gateWebhook.enabled=true", `gateWebhook.url=${URL}`, "gateWebhook.failurePolicy=Maybe"] })]);
    expect(policy.code).not.toBe(0);
    expect(policy.stderr).toMatch(/failurePolicy/);
  });
});
