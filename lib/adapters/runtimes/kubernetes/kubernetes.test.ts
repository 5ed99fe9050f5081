import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { releaseSecret, RELEASE_RECORDS, secretListAnswer } from "@/tests/support/helm-release-records";
import { startReplayServer, type ReplayServer, type Route } from "@/tests/support/replay-server";
import { runtimeFixture } from "@/tests/support/docker-fixture-routes";
import { collectKubernetes, type KubernetesCollectOptions } from "./collect-kubernetes";
import { connectionFromKubeconfig, connectionFromKubeconfigFile, inClusterConnection, inClusterFromEnv } from "./connection";
import { podSchema, type Pod } from "./schema";
import { digestOfImageId, mainContainerOf, serviceOf } from "./transform";

type PodList = { items: unknown[] };
const podsOf = (file: string): Pod[] => runtimeFixture<PodList>(file).items.map((p) => podSchema.parse(p));
const allPods = [...podsOf("kubernetes/pods-1-page-1.json"), ...podsOf("kubernetes/pods-1-page-2.json")];
const podNamed = (name: string) => {
  const pod = allPods.find((p) => p.metadata.name === name);
  if (!pod) throw new Error(`no fixture pod ${name}`);
  return pod;
};
const hex = (c: string) => c.repeat(64);

describe("kubernetes transform", () => {
  it.each([
    ["annotation driftwatch.io/service", "reports-7b9d8c6f5-zt5kq", "reporting"],
    ["app.kubernetes.io/name", "web-7d9c5b8f6-x2m4q", "web"],
    ["app label", "postgres-0", "postgres"],
    ["the Deployment behind the ReplicaSet", "api-6c8f9d7b5-9qwlt", "api"],
  ])("service from %s", (_, pod, expected) => {
    expect(serviceOf(podNamed(pod), new Map([["shop/api-6c8f9d7b5", "api"]]))).toBe(expected);
  });

  it("derives the Deployment from the pod-template-hash when ReplicaSets cannot be read", () => {
    expect(serviceOf(podNamed("api-6c8f9d7b5-9qwlt"), new Map())).toBe("api");
  });

  it.each([
    ["the annotated container", "reports-7b9d8c6f5-zt5kq", "app"],
    ["the first container that is not a known sidecar", "web-7d9c5b8f6-x2m4q", "nginx"],
    ["skipping cloud-sql-proxy", "api-6c8f9d7b5-9qwlt", "api"],
  ])("main container: %s", (_, pod, expected) => {
    expect(mainContainerOf(podNamed(pod))).toBe(expected);
  });

  it.each([
    ["containerd form", "nginx:1.27", `docker.io/library/nginx@sha256:${hex("a")}`, `sha256:${hex("a")}`],
    ["dockershim form", "nginx:1.27", `docker-pullable://nginx@sha256:${hex("b")}`, `sha256:${hex("b")}`],
    ["a local image ID is no registry digest", "tools:dev", `sha256:${hex("c")}`, null],
    ["another repository's digest is not borrowed", "acme/web:1", `docker.io/library/nginx@sha256:${hex("d")}`, null],
    ["a pinned spec image wins", `nginx:1.27@sha256:${hex("e")}`, `docker.io/library/nginx@sha256:${hex("e")}`, `sha256:${hex("e")}`],
    ["not pulled yet", "nginx:1.27", "", null],
  ])("digest from imageID: %s", (_, spec, imageID, expected) => {
    expect(digestOfImageId(spec, imageID)).toBe(expected);
  });
});

function k8sRoutes(opts: { pods: "set1" | "set2"; replicaSets?: "ok" | "forbidden" }): Route[] {
  const forbidden = { status: 403, body: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: 'replicasets.apps is forbidden: User "system:serviceaccount:driftwatch:agent" cannot list resource "replicasets" in API group "apps" at the cluster scope', reason: "Forbidden", details: { group: "apps", kind: "replicasets" }, code: 403 } };
  return [
    {
      path: "/api/v1/pods",
      reply: (_req, url) => {
        if (opts.pods === "set2") return { body: runtimeFixture("kubernetes/pods-2.json") };
        return { body: runtimeFixture(url.searchParams.get("continue") ? "kubernetes/pods-1-page-2.json" : "kubernetes/pods-1-page-1.json") };
      },
    },
    { path: "/apis/apps/v1/replicasets", reply: opts.replicaSets === "forbidden" ? forbidden : { body: runtimeFixture("kubernetes/replicasets.json") } },
    { path: "/api/v1/nodes", reply: { body: runtimeFixture("kubernetes/nodes.json") } },
    { path: "/api/v1/namespaces/shop/secrets/ghcr-pull", reply: { body: runtimeFixture("kubernetes/secrets/shop-ghcr-pull.json") } },
  ];
}

describe("collectKubernetes against a replayed API server", () => {
  let server: ReplayServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const start = async (routes: Route[]): Promise<KubernetesCollectOptions> => {
    server = await startReplayServer(routes);
    dir = mkdtempSync(path.join(os.tmpdir(), "dw-kube-"));
    const kubeconfig = path.join(dir, "config");
    writeFileSync(
      kubeconfig,
      [
        "apiVersion: v1",
        "kind: Config",
        "current-context: prod-eu",
        "clusters:",
        "- name: eks-prod-eu",
        "  cluster:",
        `    server: ${server.url}`,
        "contexts:",
        "- name: prod-eu",
        "  context: {cluster: eks-prod-eu, user: agent, namespace: shop}",
        "users:",
        "- name: agent",
        "  user:",
        "    token: kube-token-123",
      ].join("\n"),
    );
    return { environment: "staging", kubeconfig, namespaces: { monitoring: "ops" } };
  };

  it("reports each container of running pods, folding replicas and showing a rollout in flight", async () => {
    const opts = await start(k8sRoutes({ pods: "set1" }));
    const { observations } = await collectKubernetes(opts);

    expect(observations.map((o) => [o.environment, o.target.name])).toEqual([
      ["staging", "kubernetes@prod-eu"],
      ["ops", "kubernetes@prod-eu/ops"],
    ]);
    const staging = observations[0]!.workloads;
    expect(staging.map((w) => [w.service, w.container, w.main, w.image, w.since])).toEqual([
      ["api", "api", true, "ghcr.io/acme/shop-api:2.4.1", "2026-11-15T16:20:00.000Z"],
      ["api", "cloud-sql-proxy", false, "gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.11.0", "2026-11-15T16:20:02.000Z"],
      ["postgres", "postgres", true, "postgres:16.4", "2026-10-01T12:00:07.000Z"],
      ["reporting", "app", true, "registry.acme.internal:5000/acme/reports:0.9.0", "2026-11-18T10:00:04.000Z"],
      ["reporting", "log-shipper", false, "fluent/fluent-bit:3.1.9", "2026-11-18T10:00:01.000Z"],
      ["reporting", "metrics", false, "registry.acme.internal:5000/tools/statsd-exporter:0.27.1", "2026-11-18T10:00:03.000Z"],
      ["web", "istio-proxy", false, "docker.io/istio/proxyv2:1.23.2", "2026-11-02T09:14:03.000Z"],
      ["web", "nginx", true, "nginx:1.27.2-alpine", "2026-11-02T09:14:03.000Z"],
      ["web", "nginx", true, "nginx:1.27.3-alpine", "2026-11-20T09:58:14.000Z"],
      ["worker", "worker", true, "ghcr.io/acme/shop-worker:2.4.1", "2026-11-20T08:00:00.000Z"],
    ]);
    const web = staging.filter((w) => w.service === "web" && w.container === "nginx");
    expect(web.every((w) => w.digest?.startsWith("sha256:") && w.application === "shop" && w.platform_digest === null)).toBe(true);
    expect(staging.find((w) => w.container === "metrics")?.digest).toBeNull();
    // The old ReplicaSet's pods run on amd64 and arm64 nodes: the row leaves the platform open.
    expect(web.map((w) => w.platform)).toEqual([null, "linux/amd64"]);
    expect(observations[1]!.workloads.map((w) => [w.service, w.platform, w.since])).toEqual([["node-exporter", null, "2026-10-15T06:00:00.000Z"]]);

    // Pods were read in two pages, with the token and the Running field selector.
    expect(server!.count("/api/v1/pods")).toBe(2);
    expect(server!.requests[0]!.headers.authorization).toBe("Bearer kube-token-123");
    expect(server!.requests.some((r) => r.path.includes("fieldSelector=status.phase%3DRunning"))).toBe(true);
  });

  it("sees the finished rollout and a pod that disappeared on the next read", async () => {
    const opts = await start(k8sRoutes({ pods: "set2" }));
    const { observations } = await collectKubernetes(opts);
    const staging = observations[0]!.workloads;
    expect(staging.filter((w) => w.container === "nginx").map((w) => [w.image, w.since])).toEqual([["nginx:1.27.3-alpine", "2026-11-20T09:58:14.000Z"]]);
    expect(staging.some((w) => w.service === "reporting")).toBe(false);
  });

  it("falls back to the pod-template-hash when listing ReplicaSets is forbidden", async () => {
    const opts = await start(k8sRoutes({ pods: "set1", replicaSets: "forbidden" }));
    const { observations } = await collectKubernetes(opts);
    expect(observations[0]!.workloads.filter((w) => w.service === "api")).toHaveLength(2);
  });

  it("lists per namespace when told to, and reads pull secrets only when asked", async () => {
    const opts = await start([
      { path: "/api/v1/namespaces/shop/pods", reply: { body: runtimeFixture("kubernetes/pods-2.json") } },
      { path: "/apis/apps/v1/namespaces/shop/replicasets", reply: { body: runtimeFixture("kubernetes/replicasets.json") } },
      ...k8sRoutes({ pods: "set2" }),
    ]);
    const { credentials } = await collectKubernetes({ ...opts, listNamespaces: ["shop"] });
    expect(server!.count("/api/v1/pods")).toBe(0);
    expect(server!.count("/api/v1/namespaces/shop/pods")).toBe(1);
    // The namespace's Secrets are listed for Helm's release records only, never to find a pull secret.
    expect(server!.requests.filter((r) => r.path.startsWith("/api/v1/namespaces/shop/secrets?")).every((r) => r.path.includes("labelSelector=owner%3Dhelm"))).toBe(true);
    expect(server!.count("/api/v1/namespaces/shop/secrets/ghcr-pull")).toBe(0);

    expect(await credentials.forRepository("ghcr.io/acme/shop-api")).toEqual({ username: "acme-bot", password: "ghp_exampleexampleexample0001" });
    expect(await credentials.forRepository("ghcr.io/acme/shop-worker")).toEqual({ username: "acme-bot", password: "ghp_exampleexampleexample0001" });
    expect(await credentials.forRepository("quay.io/prometheus/node-exporter")).toBeNull();
    expect(server!.count("/api/v1/namespaces/shop/secrets/ghcr-pull")).toBe(1);
  });

  it("reports each Helm release's deployed revision beside the pods of its namespace's environment", async () => {
    const secrets = RELEASE_RECORDS.map(releaseSecret);
    const opts = await start([{ path: "/api/v1/secrets", reply: (_req, url) => ({ body: secretListAnswer(secrets, url) }) }, ...k8sRoutes({ pods: "set2" })]);
    const { observations, helmErrors } = await collectKubernetes(opts);
    expect(helmErrors).toEqual([]);
    const charts = observations.map((o) => [o.environment, o.workloads.filter((w) => w.kind === "helm_release").map((w) => [w.service, w.image, w.chart?.revision, w.since])]);
    expect(charts).toEqual([
      ["staging", [["ingress-nginx", "ingress-nginx:4.11.2", 3, "2026-11-10T14:00:00.250Z"], ["cert-manager", "cert-manager:v1.16.1", 1, "2026-10-20T07:15:00.987Z"]]],
      ["ops", [["shop-api-chart", "shop-api:0.4.0", 2, "2026-11-19T16:45:10.000Z"]]],
    ]);
    // Image rows are still there, and only deployed records of Helm's type were asked for.
    expect(observations[0]!.workloads.some((w) => w.kind === undefined && w.service === "web")).toBe(true);
    const listed = server!.requests.find((r) => r.path.startsWith("/api/v1/secrets"))!;
    const query = new URL(listed.path, "http://k").searchParams;
    expect([query.get("labelSelector"), query.get("fieldSelector")]).toEqual(["owner=helm,status=deployed", "type=helm.sh/release.v1"]);
  });

  it("reports no Helm release, and still every pod, when listing Secrets is forbidden", async () => {
    const opts = await start([
      { path: "/api/v1/secrets", reply: { status: 403, body: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: 'secrets is forbidden: User "system:serviceaccount:driftwatch:agent" cannot list resource "secrets" in API group "" at the cluster scope', reason: "Forbidden", code: 403 } } },
      ...k8sRoutes({ pods: "set2" }),
    ]);
    const { observations } = await collectKubernetes(opts);
    expect(observations[0]!.workloads.some((w) => w.kind === "helm_release")).toBe(false);
    expect(observations[0]!.workloads.some((w) => w.service === "web")).toBe(true);
  });

  it("fails with the API's own message when the token is refused", async () => {
    const opts = await start([{ path: "/api/v1/pods", reply: { status: 401, body: { kind: "Status", apiVersion: "v1", status: "Failure", message: "Unauthorized", reason: "Unauthorized", code: 401 } } }]);
    await expect(collectKubernetes(opts)).rejects.toMatchObject({ code: "unauthenticated", message: expect.stringContaining("Unauthorized") });
  });
});

describe("kubeconfig and in-cluster connections over TLS", () => {
  let dir: string;
  let server: https.Server;
  let url: string;
  const seen: { authorization?: string; clientCert: boolean }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dw-kube-tls-"));
    const ssl = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    ssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.crt", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]);
    ssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "client.key", "-out", "client.crt", "-days", "1", "-subj", "/CN=driftwatch-agent/O=system:masters"]);
    server = https.createServer(
      { key: readFileSync(path.join(dir, "server.key")), cert: readFileSync(path.join(dir, "server.crt")), ca: readFileSync(path.join(dir, "client.crt")), requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        const socket = req.socket as import("node:tls").TLSSocket;
        seen.push({ authorization: req.headers.authorization, clientCert: socket.authorized });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: "1" }, items: [] }));
      },
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  const kubeconfig = (cluster: string, user: string) =>
    ["current-context: c", "contexts:", "- name: c", "  context: {cluster: k, user: u}", "clusters:", "- name: k", "  cluster:", `    server: ${url}`, cluster, "users:", "- name: u", "  user:", user].join("\n");

  it("verifies the server against certificate-authority-data and presents a client certificate from files", async () => {
    const ca = readFileSync(path.join(dir, "server.crt")).toString("base64");
    const file = path.join(dir, "kubeconfig");
    writeFileSync(file, kubeconfig(`    certificate-authority-data: ${ca}`, "    client-certificate: client.crt\n    client-key: client.key"));
    const { observations } = await collectKubernetes({ environment: "prod", kubeconfig: file });
    expect(observations).toEqual([{ environment: "prod", target: { name: "kubernetes@c", kind: "kubernetes" }, workloads: [] }]);
    expect(seen.at(-1)).toEqual({ authorization: undefined, clientCert: true });
  });

  it("refuses an unknown server certificate unless insecure-skip-tls-verify is set", async () => {
    const strict = connectionFromKubeconfig(kubeconfig("", "    token: t"), { base: dir });
    await expect(collectKubernetes({ environment: "prod" }, strict)).rejects.toMatchObject({ code: "unavailable" });
    const lax = connectionFromKubeconfig(kubeconfig("    insecure-skip-tls-verify: true", "    token: t"), { base: dir });
    await collectKubernetes({ environment: "prod" }, lax);
    expect(seen.at(-1)?.authorization).toBe("Bearer t");
  });

  it("connects in-cluster with the service-account token and CA, naming the target after the environment", async () => {
    const sa = path.join(dir, "serviceaccount");
    mkdirSync(sa, { recursive: true });
    writeFileSync(path.join(sa, "token"), "sa-token-xyz\n");
    writeFileSync(path.join(sa, "ca.crt"), readFileSync(path.join(dir, "server.crt")));
    const inCluster = inClusterFromEnv({ KUBERNETES_SERVICE_HOST: "127.0.0.1", KUBERNETES_SERVICE_PORT: url.split(":").pop() });
    expect(inCluster).not.toBeNull();
    const conn = inClusterConnection({ ...inCluster!, serviceAccountDir: sa });
    const { observations } = await collectKubernetes({ environment: "production" }, conn);
    expect(observations[0]?.target.name).toBe("kubernetes@production");
    expect(seen.at(-1)?.authorization).toBe("Bearer sa-token-xyz");
  });

  it("refuses exec credential plugins rather than running them", () => {
    const file = path.join(dir, "exec-config");
    writeFileSync(file, kubeconfig("", "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: [eks, get-token]"));
    expect(() => connectionFromKubeconfigFile(file)).toThrow(/exec or auth-provider plugin/);
  });
});
