// Helm 3 release records as Helm's Secret driver stores them (pkg/storage/driver/secrets.go): one
// Secret per revision, named sh.helm.release.v1.<release>.v<revision>, of type helm.sh/release.v1,
// labelled name/owner/status/version/modifiedAt, its data.release the release JSON gzipped and
// base64-encoded by Helm (and base64-encoded again by the API, as for any Secret's data).
import { gzipSync } from "node:zlib";

export type RecordSpec = {
  release: string;
  namespace: string;
  revision: number;
  status: "deployed" | "superseded" | "failed" | "pending-upgrade" | "uninstalling";
  chart: { name: string; version: string; appVersion?: string; home?: string; annotations?: Record<string, string> };
  firstDeployed: string;
  lastDeployed: string;
};

/** The release JSON, with the fields Helm writes (templates and values kept short). */
export function releaseJson(r: RecordSpec): Record<string, unknown> {
  return {
    name: r.release,
    info: {
      first_deployed: r.firstDeployed,
      last_deployed: r.lastDeployed,
      deleted: "",
      description: r.status === "failed" ? `Upgrade "${r.release}" failed: context deadline exceeded` : r.revision === 1 ? "Install complete" : "Upgrade complete",
      status: r.status,
      notes: `${r.chart.name} has been installed.`,
    },
    chart: {
      metadata: {
        name: r.chart.name,
        version: r.chart.version,
        description: `A Helm chart for ${r.chart.name}`,
        apiVersion: "v2",
        ...(r.chart.home ? { home: r.chart.home } : {}),
        ...(r.chart.appVersion ? { appVersion: r.chart.appVersion } : {}),
        ...(r.chart.annotations ? { annotations: r.chart.annotations } : {}),
        type: "application",
      },
      lock: null,
      templates: [{ name: "templates/deployment.yaml", data: Buffer.from("apiVersion: apps/v1\nkind: Deployment\n").toString("base64") }],
      values: { replicaCount: 1 },
      schema: null,
      files: [],
    },
    config: {},
    manifest: "---\n# Source: chart/templates/deployment.yaml\napiVersion: apps/v1\nkind: Deployment\n",
    version: r.revision,
    namespace: r.namespace,
  };
}

/** Helm's encodeRelease: JSON, gzip, base64. */
export const encodeRelease = (release: Record<string, unknown>) => gzipSync(Buffer.from(JSON.stringify(release))).toString("base64");

/** The Secret as `GET /api/v1/secrets` lists it. */
export function releaseSecret(r: RecordSpec): Record<string, unknown> {
  return {
    metadata: {
      name: `sh.helm.release.v1.${r.release}.v${r.revision}`,
      namespace: r.namespace,
      uid: `6c1f${String(r.revision).padStart(4, "0")}-1b2c-4d5e-8f90-${Buffer.from(r.release).toString("hex").padEnd(12, "0").slice(0, 12)}`,
      resourceVersion: String(4000 + r.revision),
      creationTimestamp: r.lastDeployed.replace(/\.\d+Z$/, "Z"),
      labels: { modifiedAt: String(Math.floor(Date.parse(r.lastDeployed) / 1000)), name: r.release, owner: "helm", status: r.status, version: String(r.revision) },
    },
    data: { release: Buffer.from(encodeRelease(releaseJson(r))).toString("base64") },
    type: "helm.sh/release.v1",
  };
}

/** A SecretList answer that applies label (`a=b,c=d`) and `type=` field selectors, as the API server does. */
export function secretListAnswer(secrets: Record<string, unknown>[], url: URL): Record<string, unknown> {
  const labels = (url.searchParams.get("labelSelector") ?? "").split(",").filter(Boolean).map((t) => t.split("=") as [string, string]);
  const fields = (url.searchParams.get("fieldSelector") ?? "").split(",").filter(Boolean).map((t) => t.split("=") as [string, string]);
  const items = secrets.filter((s) => {
    const meta = s.metadata as { labels: Record<string, string>; namespace: string };
    if (labels.some(([k, v]) => meta.labels[k] !== v)) return false;
    return fields.every(([k, v]) => (k === "type" ? s.type === v : k === "metadata.namespace" ? meta.namespace === v : false));
  });
  return { kind: "SecretList", apiVersion: "v1", metadata: { resourceVersion: "5123" }, items };
}

/** Releases in several namespaces: superseded and failed revisions beside each deployed one. */
export const RELEASE_RECORDS: RecordSpec[] = [
  { release: "ingress-nginx", namespace: "default", revision: 1, status: "superseded", chart: { name: "ingress-nginx", version: "4.10.0", appVersion: "1.10.0" }, firstDeployed: "2026-09-01T08:00:00.123456789Z", lastDeployed: "2026-09-01T08:00:00.123456789Z" },
  { release: "ingress-nginx", namespace: "default", revision: 2, status: "superseded", chart: { name: "ingress-nginx", version: "4.10.1", appVersion: "1.10.1" }, firstDeployed: "2026-09-01T08:00:00.123456789Z", lastDeployed: "2026-10-02T09:30:00.5Z" },
  { release: "ingress-nginx", namespace: "default", revision: 3, status: "deployed", chart: { name: "ingress-nginx", version: "4.11.2", appVersion: "1.11.2", home: "https://github.com/kubernetes/ingress-nginx" }, firstDeployed: "2026-09-01T08:00:00.123456789Z", lastDeployed: "2026-11-10T14:00:00.25Z" },
  { release: "ingress-nginx", namespace: "default", revision: 4, status: "failed", chart: { name: "ingress-nginx", version: "4.11.3", appVersion: "1.11.3" }, firstDeployed: "2026-09-01T08:00:00.123456789Z", lastDeployed: "2026-11-21T10:00:00Z" },
  { release: "cert-manager", namespace: "default", revision: 1, status: "deployed", chart: { name: "cert-manager", version: "v1.16.1", appVersion: "v1.16.1" }, firstDeployed: "2026-10-20T07:15:00.987654321Z", lastDeployed: "2026-10-20T07:15:00.987654321Z" },
  { release: "shop-api", namespace: "monitoring", revision: 1, status: "superseded", chart: { name: "shop-api", version: "0.3.0", appVersion: "2.4.0", annotations: { "driftwatch.io/chart-repository": "oci://ghcr.io/acme/charts" } }, firstDeployed: "2026-11-01T12:00:00Z", lastDeployed: "2026-11-01T12:00:00Z" },
  { release: "shop-api", namespace: "monitoring", revision: 2, status: "deployed", chart: { name: "shop-api", version: "0.4.0", appVersion: "2.4.1", annotations: { "driftwatch.io/chart-repository": "oci://ghcr.io/acme/charts", "driftwatch.io/service": "shop-api-chart" } }, firstDeployed: "2026-11-01T12:00:00Z", lastDeployed: "2026-11-19T16:45:10Z" },
  { release: "shop-api", namespace: "monitoring", revision: 3, status: "pending-upgrade", chart: { name: "shop-api", version: "0.5.0", appVersion: "2.5.0" }, firstDeployed: "2026-11-01T12:00:00Z", lastDeployed: "2026-11-22T09:00:00Z" },
];

/**
 * A pod of a release as most charts template it (Bitnami's redis, say): labelled with the chart's
 * name and the release's (`app.kubernetes.io/name=redis`, `app.kubernetes.io/instance=redis`), so the
 * pods and the release carry one name. Owned by the chart's StatefulSet, running and pulled.
 */
export function releasePod(p: { release: string; chart: string; chartVersion: string; namespace: string; pod: string; image: string; digest: string; startedAt: string }): Record<string, unknown> {
  const statefulSet = p.pod.replace(/-\d+$/, "");
  return {
    metadata: {
      name: p.pod,
      generateName: `${statefulSet}-`,
      namespace: p.namespace,
      uid: `7d2e${Buffer.from(p.pod).toString("hex").padEnd(28, "0").slice(0, 28)}`,
      resourceVersion: "5310",
      creationTimestamp: p.startedAt,
      labels: {
        "app.kubernetes.io/component": statefulSet.slice(p.release.length + 1) || "primary",
        "app.kubernetes.io/instance": p.release,
        "app.kubernetes.io/managed-by": "Helm",
        "app.kubernetes.io/name": p.chart,
        "app.kubernetes.io/version": p.image.split(":").at(-1)!,
        "helm.sh/chart": `${p.chart}-${p.chartVersion}`,
        "controller-revision-hash": `${statefulSet}-5d8f7c6b9d`,
        "statefulset.kubernetes.io/pod-name": p.pod,
      },
      annotations: { "checksum/configmap": "86bcc953bb473748a3d3dc60b7c11f34e60c93519234d4c37f42e22ada559d47" },
      ownerReferences: [{ apiVersion: "apps/v1", kind: "StatefulSet", name: statefulSet, uid: "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b", controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      containers: [{ name: p.chart, image: p.image, imagePullPolicy: "IfNotPresent", ports: [{ name: p.chart, containerPort: 6379, protocol: "TCP" }] }],
      nodeName: "node-a",
      serviceAccountName: `${p.release}-${p.chart}`,
    },
    status: {
      phase: "Running",
      startTime: p.startedAt,
      containerStatuses: [{
        name: p.chart, ready: true, restartCount: 0, image: p.image, imageID: `${p.image.replace(/:[^:/]+$/, "")}@${p.digest}`,
        containerID: `containerd://${"9c".repeat(32)}`, started: true, state: { running: { startedAt: p.startedAt } },
      }],
    },
  };
}
