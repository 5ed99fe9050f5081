// The agent's ClusterRole in the Helm chart against the requests that the Kubernetes adapter really
// makes: the adapter runs against a replayed API server that enforces the rendered role the way
// the API server's RBAC authorizer does, so every request it needs must be allowed, and every
// rule of the role must be needed by some request.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectKubernetes } from "@/lib/adapters/runtimes/kubernetes/collect-kubernetes";
import { runtimeFixture } from "@/tests/support/docker-fixture-routes";
import { ciValues, objectOf, renderChart, type Deployment, type K8sObject } from "@/tests/support/helm-chart";
import { releaseSecret, RELEASE_RECORDS, secretListAnswer } from "@/tests/support/helm-release-records";
import { kubeTools } from "@/tests/support/kube-tools";
import { startReplayServer, type ReplayServer } from "@/tests/support/replay-server";

type Rule = { apiGroups?: string[]; resources?: string[]; verbs: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };
type Role = K8sObject & { rules: Rule[] };
type Binding = K8sObject & { roleRef: { apiGroup: string; kind: string; name: string }; subjects: { kind: string; name: string; namespace?: string }[] };

/** The attributes RBAC decides a request on, as the API server derives them from method and path. */
type Permission = { verb: string; group: string; resource: string; namespace: string | null; name: string | null };

function permissionOf(method: string, pathAndQuery: string): Permission {
  const url = new URL(pathAndQuery, "http://kubernetes.local");
  const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  let group: string;
  let rest: string[];
  if (parts[0] === "api" && parts.length >= 3) [group, rest] = ["", parts.slice(2)];
  else if (parts[0] === "apis" && parts.length >= 4) [group, rest] = [parts[1]!, parts.slice(3)];
  else throw new Error(`not a resource request: ${url.pathname}`);
  let namespace: string | null = null;
  if (rest[0] === "namespaces" && rest.length >= 3) [namespace, rest] = [rest[1]!, rest.slice(2)];
  const [resource, name = null, subresource] = rest;
  const reads = name === null ? (url.searchParams.get("watch") === "true" ? "watch" : "list") : "get";
  const verbs: Record<string, string> = { GET: reads, HEAD: reads, POST: "create", PUT: "update", PATCH: "patch", DELETE: name === null ? "deletecollection" : "delete" };
  const verb = verbs[method];
  if (!verb || !resource) throw new Error(`no RBAC verb for ${method} ${url.pathname}`);
  return { verb, group, resource: subresource ? `${resource}/${subresource}` : resource, namespace, name };
}

function allows(rules: Rule[], p: Permission): boolean {
  return rules.some(
    (r) =>
      (r.apiGroups ?? []).some((g) => g === "*" || g === p.group) &&
      (r.resources ?? []).some((res) => res === "*" || res === p.resource) &&
      r.verbs.some((v) => v === "*" || v === p.verb) &&
      (!r.resourceNames?.length || (p.name !== null && r.resourceNames.includes(p.name))),
  );
}

const forbidden = (p: Permission) => ({
  status: 403,
  body: {
    kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", reason: "Forbidden", code: 403,
    message: `${p.resource}${p.group ? `.${p.group}` : ""} is forbidden: User "system:serviceaccount:driftwatch:dw-driftwatch-agent" cannot ${p.verb} resource "${p.resource}" in API group "${p.group}"`,
  },
});

/**
 * A replayed API server answering with recorded bodies, refusing with 403 whatever `rules` does not
 * allow (no rules: allow all).
 */
async function apiServer(rules: Rule[] | null): Promise<ReplayServer> {
  const answers: [RegExp, (url: URL) => unknown][] = [
    [/^\/api\/v1\/pods$/, (url) => runtimeFixture(url.searchParams.get("continue") ? "kubernetes/pods-1-page-2.json" : "kubernetes/pods-1-page-1.json")],
    [/^\/apis\/apps\/v1\/replicasets$/, () => runtimeFixture("kubernetes/replicasets.json")],
    [/^\/api\/v1\/nodes$/, () => runtimeFixture("kubernetes/nodes.json")],
    [/^\/api\/v1\/namespaces\/shop\/secrets\/ghcr-pull$/, () => runtimeFixture("kubernetes/secrets/shop-ghcr-pull.json")],
    [/^\/api\/v1\/secrets$/, (url) => secretListAnswer(RELEASE_RECORDS.map(releaseSecret), url)],
  ];
  return startReplayServer([
    {
      method: "*",
      path: /.*/,
      reply: (req, url) => {
        const p = permissionOf(req.method, req.path);
        if (rules && !allows(rules, p)) return forbidden(p);
        const answer = answers.find(([re]) => re.test(url.pathname));
        return answer ? { body: answer[1](url) } : { status: 404, body: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404, message: "not found" } };
      },
    },
  ]);
}

let dir: string;

/** What the agent collects (and finds for a private repository) through a server enforcing `rules`. */
async function runAdapter(rules: Rule[] | null) {
  const server = await apiServer(rules);
  try {
    const kubeconfig = path.join(dir, `config-${Math.random().toString(36).slice(2)}`);
    writeFileSync(kubeconfig, JSON.stringify({
      "current-context": "c",
      contexts: [{ name: "c", context: { cluster: "k", user: "agent" } }],
      clusters: [{ name: "k", cluster: { server: server.url } }],
      users: [{ name: "agent", user: { token: "sa-token" } }],
    }));
    // The options the chart's agent runs with: the whole cluster, namespaces mapped to environments.
    const { observations, credentials } = await collectKubernetes({ environment: "production", kubeconfig, namespaces: { monitoring: "ops" } });
    const credential = await credentials.forRepository("ghcr.io/acme/shop-api");
    const requests = server.requests.map((r) => ({ request: `${r.method} ${r.path.split("?")[0]}`, permission: permissionOf(r.method, r.path) }));
    return { observations, credential, requests };
  } finally {
    await server.close();
  }
}

async function agentRbac(values: string[], set: string[] = []) {
  const objects = await renderChart({ values, set });
  const role = objectOf<Role>(objects, "ClusterRole", "dw-driftwatch-agent");
  const binding = objectOf<Binding>(objects, "ClusterRoleBinding", "dw-driftwatch-agent");
  const agent = objectOf<Deployment>(objects, "Deployment", "dw-driftwatch-agent");
  return { objects, role, binding, agent };
}

const key = (p: Pick<Permission, "verb" | "group" | "resource">) => `${p.verb} ${p.group || "core"}/${p.resource}`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "dw-rbac-"));
  await kubeTools();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("request attributes", () => {
  it.each([
    ["GET", "/api/v1/pods?limit=500&fieldSelector=status.phase%3DRunning", { verb: "list", group: "", resource: "pods", namespace: null, name: null }],
    ["GET", "/api/v1/namespaces/shop/pods?watch=true", { verb: "watch", group: "", resource: "pods", namespace: "shop", name: null }],
    ["GET", "/apis/apps/v1/namespaces/shop/replicasets/api-6c8f", { verb: "get", group: "apps", resource: "replicasets", namespace: "shop", name: "api-6c8f" }],
    ["GET", "/api/v1/nodes", { verb: "list", group: "", resource: "nodes", namespace: null, name: null }],
    ["GET", "/api/v1/namespaces/shop/pods/web-1/log", { verb: "get", group: "", resource: "pods/log", namespace: "shop", name: "web-1" }],
    ["DELETE", "/api/v1/namespaces/shop/secrets/x", { verb: "delete", group: "", resource: "secrets", namespace: "shop", name: "x" }],
  ])("%s %s", (method, p, expected) => {
    expect(permissionOf(method, p)).toEqual(expected);
  });
});

describe("the agent's ClusterRole", () => {
  it("the Kubernetes adapter makes exactly these requests (a new one needs a rule in the chart)", async () => {
    const { requests, observations, credential } = await runAdapter(null);
    expect(observations.length).toBeGreaterThan(0);
    expect(credential).not.toBeNull();
    expect([...new Set(requests.map((r) => r.request))].sort()).toEqual([
      "GET /api/v1/namespaces/shop/secrets/ghcr-pull",
      "GET /api/v1/nodes",
      "GET /api/v1/pods",
      "GET /api/v1/secrets",
      "GET /apis/apps/v1/replicasets",
    ]);
    expect([...new Set(requests.map((r) => key(r.permission)))].sort()).toEqual(["get core/secrets", "list apps/replicasets", "list core/nodes", "list core/pods", "list core/secrets"]);
    expect(observations.flatMap((o) => o.workloads).filter((w) => w.kind === "helm_release")).toHaveLength(3);
  });

  it.each([
    ["beside the server", [ciValues("embedded")]],
    ["alone", [ciValues("agent-only")]],
  ])("allows every request the adapter makes and nothing more (%s)", async (_, values) => {
    const { role, binding, agent } = await agentRbac(values);
    const open = await runAdapter(null);
    const enforced = await runAdapter(role.rules);
    // Nothing was refused: the agent sees through the role what it sees with every right.
    expect(enforced.requests.filter((r) => !allows(role.rules, r.permission))).toEqual([]);
    expect(enforced.observations).toEqual(open.observations);
    expect(enforced.credential).toEqual(open.credential);

    // Every verb of every rule is used by a request: no rule grants more than is asked.
    const used = new Set(enforced.requests.map((r) => key(r.permission)));
    for (const rule of role.rules) {
      expect(rule.nonResourceURLs).toBeUndefined();
      for (const group of rule.apiGroups ?? []) for (const resource of rule.resources ?? []) for (const verb of rule.verbs) {
        expect(used.has(key({ verb, group, resource })), `rule grants ${key({ verb, group, resource })}, which the adapter never asks`).toBe(true);
      }
    }
    expect(JSON.stringify(role.rules)).not.toContain("*");

    // The role reaches the agent's pods, and only them.
    expect(binding.roleRef).toEqual({ apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role.metadata.name });
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", name: agent.spec.template.spec.serviceAccountName, namespace: "driftwatch" }]);
  });

  it("pullSecrets.names narrows reading Secrets to those names", async () => {
    const { role } = await agentRbac([ciValues("agent-only")]);
    expect(role.rules.find((r) => r.resources?.includes("secrets"))).toEqual({ apiGroups: [""], resources: ["secrets"], verbs: ["get"], resourceNames: ["ghcr-pull"] });
    expect(allows(role.rules, permissionOf("GET", "/api/v1/namespaces/shop/secrets/ghcr-pull"))).toBe(true);
    expect(allows(role.rules, permissionOf("GET", "/api/v1/namespaces/shop/secrets/database"))).toBe(false);
    // Listing stays allowed for Helm's release records (RBAC has no narrower grant for them).
    expect(allows(role.rules, permissionOf("GET", "/api/v1/namespaces/shop/secrets"))).toBe(true);
  });

  it("without Helm releases the agent lists no Secret, and reports every pod but no release", async () => {
    const { role } = await agentRbac([ciValues("embedded")], ["agent.rbac.helmReleases.enabled=false"]);
    expect(role.rules.filter((r) => r.resources?.includes("secrets"))).toEqual([{ apiGroups: [""], resources: ["secrets"], verbs: ["get"] }]);
    const open = await runAdapter(null);
    const enforced = await runAdapter(role.rules);
    expect(enforced.requests.filter((r) => !allows(role.rules, r.permission)).map((r) => r.request)).toEqual(["GET /api/v1/secrets"]);
    const imagesOnly = (o: typeof open.observations) => o.map((x) => ({ ...x, workloads: x.workloads.filter((w) => w.kind !== "helm_release") }));
    expect(enforced.observations).toEqual(imagesOnly(open.observations));
    expect(enforced.observations.flatMap((o) => o.workloads).some((w) => w.kind === "helm_release")).toBe(false);
  });

  it("without pull secrets the agent reads no pull secret and still reports every workload", async () => {
    const { role } = await agentRbac([ciValues("embedded")], ["agent.rbac.pullSecrets.enabled=false"]);
    expect(role.rules.filter((r) => r.resources?.includes("secrets"))).toEqual([{ apiGroups: [""], resources: ["secrets"], verbs: ["list"] }]);
    const open = await runAdapter(null);
    const enforced = await runAdapter(role.rules);
    expect(enforced.observations).toEqual(open.observations);
    expect(enforced.credential).toBeNull();
    expect(enforced.requests.filter((r) => !allows(role.rules, r.permission)).map((r) => r.request)).toEqual(["GET /api/v1/namespaces/shop/secrets/ghcr-pull"]);
  });

  it("rbac.create=false leaves the role to the cluster's administrators", async () => {
    const objects = await renderChart({ values: [ciValues("agent-only")], set: ["agent.rbac.create=false"] });
    expect(objects.some((o) => o.kind === "ClusterRole" || o.kind === "ClusterRoleBinding")).toBe(false);
    expect(objectOf<Deployment>(objects, "Deployment", "dw-driftwatch-agent").spec.template.spec.serviceAccountName).toBe("dw-driftwatch-agent");
  });
});
