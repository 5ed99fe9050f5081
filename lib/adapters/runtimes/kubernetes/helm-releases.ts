// Helm 3 release records: Secrets of type helm.sh/release.v1 labelled owner=helm, one per revision.
// `data.release` is Kubernetes' base64 of Helm's own base64 of gzipped JSON. Pure: decode the
// records and keep each release's deployed revision, as a `helm_release` workload.
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import type { Workload } from "@/lib/domain/agent-report";
import { chartImage } from "@/lib/domain/charts";
import { toIso } from "../workloads";
import type { Secret } from "./schema";
import { ANNOTATIONS } from "./transform";

export const HELM_RELEASE_TYPE = "helm.sh/release.v1";
/** Set on a release Secret or in the chart's Chart.yaml annotations: where the chart comes from. */
export const CHART_REPOSITORY_ANNOTATION = "driftwatch.io/chart-repository";

const stringMap = z.record(z.string(), z.string()).nullish().transform((v) => v ?? {});

/** The fields of Helm's `release.Release` JSON that are read. */
const helmReleaseSchema = z.object({
  name: z.string().min(1),
  namespace: z.string().min(1),
  version: z.number().int().positive(),
  info: z.object({
    first_deployed: z.string().nullish(),
    last_deployed: z.string().nullish(),
    status: z.string(),
  }),
  chart: z.object({
    metadata: z.object({
      name: z.string().min(1),
      version: z.string().min(1),
      appVersion: z.string().nullish(),
      home: z.string().nullish(),
      annotations: stringMap,
    }),
  }),
});

export type HelmRelease = z.infer<typeof helmReleaseSchema>;

const GZIP_MAGIC = [0x1f, 0x8b, 0x08];
const isGzip = (b: Buffer) => GZIP_MAGIC.every((byte, i) => b[i] === byte);

/**
 * One record's release. `data` is the Secret's `data.release` as the API sends it; Helm base64-encodes
 * its (gzipped) JSON before storing it, so one or two base64 layers are peeled. Throws on anything else.
 */
export function decodeHelmRelease(data: string): HelmRelease {
  let bytes = Buffer.from(data, "base64");
  for (let layer = 0; layer < 2 && !isGzip(bytes) && bytes[0] !== 0x7b; layer++) bytes = Buffer.from(bytes.toString("latin1"), "base64");
  if (isGzip(bytes)) bytes = gunzipSync(bytes, { maxOutputLength: 32 * 1024 * 1024 });
  if (bytes[0] !== 0x7b) throw new Error("not a Helm release record");
  return helmReleaseSchema.parse(JSON.parse(bytes.toString("utf8")));
}

export type ReleaseWorkload = { namespace: string; workload: Workload };

/**
 * The deployed revision of each release (the highest with status `deployed`): superseded, failed and
 * pending revisions run nothing new. `errors` names records that could not be read; a release
 * with one is left out rather than reported from an older revision.
 */
export function deployedReleases(secrets: readonly Secret[]): { releases: ReleaseWorkload[]; errors: string[] } {
  const errors: string[] = [];
  const unreadable = new Set<string>();
  const best = new Map<string, { release: HelmRelease; secret: Secret }>();
  for (const secret of secrets) {
    if (secret.type !== HELM_RELEASE_TYPE || secret.metadata.labels.owner !== "helm") continue;
    const data = secret.data.release;
    let release: HelmRelease;
    try {
      if (!data) throw new Error("no data.release");
      release = decodeHelmRelease(data);
    } catch (err) {
      const name = secret.metadata.labels.name ?? secret.metadata.name;
      unreadable.add(`${secret.metadata.namespace ?? ""}/${name}`);
      errors.push(`${secret.metadata.namespace ?? ""}/${secret.metadata.name}: ${(err as Error).message}`);
      continue;
    }
    if (release.info.status !== "deployed") continue;
    const key = `${release.namespace}/${release.name}`;
    const seen = best.get(key);
    if (!seen || release.version > seen.release.version) best.set(key, { release, secret });
  }
  const releases: ReleaseWorkload[] = [];
  for (const [key, { release, secret }] of best) {
    if (unreadable.has(key)) continue;
    const workload = releaseWorkload(release, secret);
    if (workload) releases.push({ namespace: release.namespace, workload });
  }
  return { releases, errors };
}

function releaseWorkload(release: HelmRelease, secret: Secret): Workload | null {
  const meta = release.chart.metadata;
  // Helm writes last_deployed on every revision; first_deployed stands in for records that lack it.
  const since = toIso(release.info.last_deployed || release.info.first_deployed || "");
  if (!since) return null;
  const annotated = (name: string) => secret.metadata.annotations[name] || meta.annotations[name] || null;
  return {
    service: annotated(ANNOTATIONS.service) ?? release.name,
    container: "chart",
    main: true,
    image: chartImage(meta),
    digest: null,
    platform_digest: null,
    platform: null,
    since,
    kind: "helm_release",
    chart: {
      name: meta.name,
      version: meta.version,
      app_version: meta.appVersion || null,
      namespace: release.namespace,
      release: release.name,
      revision: release.version,
      repository: annotated(CHART_REPOSITORY_ANNOTATION),
      home: meta.home || null,
    },
  };
}
