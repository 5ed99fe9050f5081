import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeRelease, releaseJson, releaseSecret, RELEASE_RECORDS, type RecordSpec } from "@/tests/support/helm-release-records";
import { decodeHelmRelease, deployedReleases } from "./helm-releases";
import { secretListSchema } from "./schema";

const spec = RELEASE_RECORDS[2]!;
const secretsOf = (specs: RecordSpec[]) => secretListSchema.parse({ items: specs.map(releaseSecret) }).items;

describe("decodeHelmRelease", () => {
  const json = releaseJson(spec);
  const expected = { name: "ingress-nginx", namespace: "default", version: 3, status: "deployed", chart: "ingress-nginx", chartVersion: "4.11.2" };
  it.each([
    ["as the API lists it: base64 of Helm's base64 of gzip", Buffer.from(encodeRelease(json)).toString("base64")],
    ["Helm's own base64 of gzip", encodeRelease(json)],
    ["base64 of plain JSON (no gzip)", Buffer.from(Buffer.from(JSON.stringify(json)).toString("base64")).toString("base64")],
  ])("%s", (_, data) => {
    const r = decodeHelmRelease(data);
    expect({ name: r.name, namespace: r.namespace, version: r.version, status: r.info.status, chart: r.chart.metadata.name, chartVersion: r.chart.metadata.version }).toEqual(expected);
  });

  it.each([
    ["not base64 of anything", "%%%"],
    ["gzip of something that is not JSON", gzipSync(Buffer.from("hello")).toString("base64")],
    ["JSON without a chart", Buffer.from(JSON.stringify({ name: "x", namespace: "y", version: 1, info: { status: "deployed" } })).toString("base64")],
  ])("refuses %s", (_, data) => {
    expect(() => decodeHelmRelease(data)).toThrow();
  });
});

describe("deployedReleases", () => {
  it("keeps each release's deployed revision, dated by its last deployment, and ignores superseded, failed and pending ones", () => {
    const { releases, errors } = deployedReleases(secretsOf(RELEASE_RECORDS));
    expect(errors).toEqual([]);
    expect(releases.map((r) => [r.namespace, r.workload.service, r.workload.image, r.workload.since, r.workload.chart])).toEqual([
      ["default", "ingress-nginx", "ingress-nginx:4.11.2", "2026-11-10T14:00:00.250Z",
        { name: "ingress-nginx", version: "4.11.2", app_version: "1.11.2", namespace: "default", release: "ingress-nginx", revision: 3, repository: null, home: "https://github.com/kubernetes/ingress-nginx" }],
      ["default", "cert-manager", "cert-manager:v1.16.1", "2026-10-20T07:15:00.987Z",
        { name: "cert-manager", version: "v1.16.1", app_version: "v1.16.1", namespace: "default", release: "cert-manager", revision: 1, repository: null, home: null }],
      // The chart's own annotations name its service and its OCI repository.
      ["monitoring", "shop-api-chart", "shop-api:0.4.0", "2026-11-19T16:45:10.000Z",
        { name: "shop-api", version: "0.4.0", app_version: "2.4.1", namespace: "monitoring", release: "shop-api", revision: 2, repository: "oci://ghcr.io/acme/charts", home: null }],
    ]);
    expect(releases.every((r) => r.workload.kind === "helm_release" && r.workload.main && r.workload.container === "chart" && r.workload.digest === null)).toBe(true);
  });

  it("a release whose only deployed revision was superseded by a failed upgrade still runs that revision", () => {
    const { releases } = deployedReleases(secretsOf(RELEASE_RECORDS.filter((r) => r.release === "ingress-nginx" && r.revision !== 2)));
    expect(releases.map((r) => r.workload.chart?.revision)).toEqual([3]);
  });

  it("a release with no deployed revision (all failed or uninstalling) is not reported", () => {
    const { releases } = deployedReleases(secretsOf([{ ...spec, status: "failed" }, { ...spec, revision: 4, status: "uninstalling" }]));
    expect(releases).toEqual([]);
  });

  it("leaves out a release whose record cannot be read, and says which", () => {
    const [good, bad] = secretsOf([spec, { ...spec, revision: 4 }]);
    const { releases, errors } = deployedReleases([good!, { ...bad!, data: { release: Buffer.from("not a release").toString("base64") } }]);
    expect(releases).toEqual([]);
    expect(errors).toEqual(["default/sh.helm.release.v1.ingress-nginx.v4: not a Helm release record"]);
  });

  it("ignores Secrets that are not Helm's", () => {
    const [s] = secretsOf([spec]);
    expect(deployedReleases([{ ...s!, type: "Opaque" }, { ...s!, metadata: { ...s!.metadata, labels: { ...s!.metadata.labels, owner: "someone" } } }]).releases).toEqual([]);
  });
});
