// The promotion gate, fed through agent reports and asked three ways: the
// API, the CLI and the Kubernetes admission webhook give the same answers.
// History (server clock): staging ran web 2.4.0 for 69 h and runs 3.0.0 for
// 3 h; production ran 2.2.0, then runs 2.3.0. api 1.5.0 runs in staging by digest D5.
import { spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { askGate } from "@/lib/services/gate/ask";
import { createRule } from "@/lib/services/notification-rules/create";
import { deliverDue } from "@/lib/services/notifications/deliver";
import { routeEvents } from "@/lib/services/notifications/route-events";
import { api, baseUrl, makeWorkspace, request, testDb, type TestWorkspace } from "../support/api";
import { admissionReview, workloadObject } from "../support/admission-review";
import { strictFieldErrors } from "../support/k8s-strict";
import { sessionCookie, sessionRequest } from "../support/session";
import { settled } from "../support/settle";

const ROOT = path.resolve(import.meta.dirname, "../..");
const D = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
const H = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
let ws: TestWorkspace;
let cookie: string;

const workload = (service: string, image: string, digest: string | null, since: string, extra: object = {}) => ({
  service, container: service, main: true, image, digest, platform_digest: null, platform: "linux/amd64", since, ...extra,
});

async function report(environment: string, target: string, observedAt: string, workloads: object[]) {
  const res = await api(ws.agentKey).post("/api/v1/agent/report", { environment, target: { name: target, kind: "kubernetes" }, observed_at: observedAt, workloads });
  expect(res.status).toBe(202);
}

const setGate = (env: string, gate: object) => sessionRequest(cookie, "PATCH", `/api/v1/environments/${env}`, { body: { gate } });
const ask = (body: object) => api(ws.viewer).post("/api/v1/gate", body);
const codes = (body: { reasons: { code: string }[] }) => body.reasons.map((r) => r.code);

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "gate", "--url", baseUrl(), "--token", ws.viewer, ...args], {
    cwd: ROOT, env: { ...process.env, DATABASE_URL: inject("databaseUrl") }, encoding: "utf8", timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function gateRows(): Promise<number> {
  const [row] = await testDb().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM audit_log WHERE workspace_id = ${ws.id}::uuid AND action = 'gate.decided'`;
  return Number(row!.n);
}

async function admissionAddress(env = "production") {
  const res = await sessionRequest(cookie, "GET", `/api/v1/environments/${env}/admission`);
  expect(res.status).toBe(200);
  return res.body as { url: string; webhook: any };
}

async function review(url: string, body: unknown) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type"), text, body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null };
}

beforeAll(async () => {
  ws = await makeWorkspace("gate");
  cookie = await sessionCookie(ws.owner.email, ws.owner.password);
  expect((await api(ws.member).post("/api/v1/environments", { name: "staging", position: 1 })).status).toBe(201);
  expect((await api(ws.member).post("/api/v1/environments", { name: "production", position: 2, production: true })).status).toBe(201);
  // Staging, two targets: web 2.4.0 from 72 h ago (one target also from 60 h ago, overlapping), 3.0.0 for the last 3 h.
  await report("staging", "k8s@staging-a", ago(3 * H + 60_000), [workload("web", "ghcr.io/acme/web:2.4.0", D(1), ago(72 * H)), workload("api", "ghcr.io/acme/api:1.5.0", D(5), ago(72 * H))]);
  await report("staging", "k8s@staging-b", ago(3 * H + 60_000), [workload("web", "ghcr.io/acme/web:2.4.0", D(1), ago(60 * H))]);
  await report("staging", "k8s@staging-a", ago(10_000), [workload("web", "ghcr.io/acme/web:3.0.0", D(3), ago(3 * H)), workload("api", "ghcr.io/acme/api:1.5.0", D(5), ago(72 * H))]);
  await report("staging", "k8s@staging-b", ago(10_000), [workload("web", "ghcr.io/acme/web:3.0.0", D(3), ago(3 * H))]);
  // Production: 2.2.0 for ten days, then 2.3.0.
  await report("production", "k8s@prod", ago(10 * 24 * H), [workload("web", "ghcr.io/acme/web:2.2.0", D(2), ago(20 * 24 * H))]);
  await report("production", "k8s@prod", ago(10_000), [workload("web", "ghcr.io/acme/web:2.3.0", D(4), ago(10 * 24 * H))]);
  await settled(ws);
}, 120_000);

describe("gate settings", () => {
  it("are off by default and shown with every environment", async () => {
    const res = await api(ws.viewer).get("/api/v1/environments");
    expect(res.body.items.map((e: any) => [e.name, e.gate])).toEqual([
      ["staging", { mode: "off", soak: "0s", refuse_eol: true, unknown: "allow" }],
      ["production", { mode: "off", soak: "0s", refuse_eol: true, unknown: "allow" }],
    ]);
    const off = await ask({ service: "web", environment: "production", version: "9.9.9" });
    expect(off.body).toEqual({ allowed: true, mode: "off", version: "9.9.9", reasons: [], service: "web", environment: "production" });
  });

  it("need an admin: a member token is refused, bad values get 422 with a pointer", async () => {
    expect((await api(ws.member).patch("/api/v1/environments/production", { gate: { mode: "enforce" } })).status).toBe(403);
    const bad = await setGate("production", { mode: "enforce", soak: "a while" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ pointer: "/gate/soak", detail: "must be a duration such as 0s, 24h or 3d" }]);
    const badMode = await setGate("production", { mode: "strict" });
    expect(badMode.status).toBe(422);
    expect(badMode.body.errors[0].pointer).toBe("/gate/mode");
    const ok = await setGate("production", { mode: "enforce", soak: "24h" });
    expect(ok.status).toBe(200);
    expect(ok.body.gate).toEqual({ mode: "enforce", soak: "1d", refuse_eol: true, unknown: "allow" });
    // A member may still move the environment; the gate stays.
    const moved = await api(ws.member).patch("/api/v1/environments/production", { production: true });
    expect(moved.body.gate.mode).toBe("enforce");
  });
});

describe("POST /api/v1/gate (enforce, soak 24h)", () => {
  it.each<[string, object, boolean, string[]]>([
    ["soak met: 2.4.0 ran 72 h in staging (two targets, overlaps once)", { version: "2.4.0" }, true, []],
    ["soak not met: 3.0.0 ran 3 h", { version: "3.0.0" }, false, ["soak_not_met"]],
    ["never ran in staging", { version: "3.1.0" }, false, ["not_in_previous_environment"]],
    ["rollback: 2.2.0 ran in production before", { version: "2.2.0" }, true, []],
    ["what runs now", { version: "2.3.0" }, true, []],
    ["an image with a version tag", { image: "ghcr.io/acme/web:3.0.0" }, false, ["soak_not_met"]],
    ["an image pinned by digest", { image: `ghcr.io/acme/web:2.4.0@${D(1)}` }, true, []],
    ["a moving tag whose digest ran before", { service: "api", image: `ghcr.io/acme/api:latest@${D(5)}` }, true, []],
    ["a moving tag without a digest: unknown, allowed", { service: "api", image: "ghcr.io/acme/api:latest" }, true, []],
    ["an unknown service: allowed", { service: "nobody", version: "1.0.0" }, true, []],
  ])("%s", async (_, body, allowed, reasons) => {
    const res = await ask({ service: "web", environment: "production", ...body });
    expect(res.status).toBe(200);
    expect({ allowed: res.body.allowed, reasons: codes(res.body) }).toEqual({ allowed, reasons });
  });

  it("says how long the soak has left, and the version an image stands for", async () => {
    const res = await ask({ service: "web", environment: "production", image: "ghcr.io/acme/web:3.0.0" });
    expect(res.body.version).toBe("3.0.0");
    expect(res.body.reasons[0].detail).toMatch(/^20 hours 5\d minutes of soak left in staging \(3\.0\.0 ran (2 hours 5\d minutes|3 hours) of 1 day\)\.$/);
    const moving = await ask({ service: "api", environment: "production", image: `ghcr.io/acme/api:latest@${D(5)}` });
    expect(moving.body.version).toBe("1.5.0");
  });

  it("the first environment needs nothing", async () => {
    expect((await setGate("staging", { mode: "enforce", soak: "7d" })).status).toBe(200);
    const res = await ask({ service: "web", environment: "staging", version: "4.0.0" });
    expect(res.body).toMatchObject({ allowed: true, mode: "enforce", reasons: [] });
    expect((await setGate("staging", { mode: "off" })).status).toBe(200);
  });

  it("a refusal names the tag of the same release that did run", async () => {
    // The gate matches the tag deployed: 2.4.0-alpine is another image than the 2.4.0 staging ran.
    expect((await setGate("production", { mode: "enforce" })).status).toBe(200);
    const res = await ask({ service: "web", environment: "production", image: "ghcr.io/acme/web:2.4.0-alpine" });
    expect(res.body).toMatchObject({ allowed: false, version: "2.4.0-alpine", reasons: [{ code: "not_in_previous_environment", detail: "2.4.0-alpine has not run in staging. 2.4.0 has." }] });
  });

  it("refuses unknown services and versions when told to", async () => {
    expect((await setGate("production", { unknown: "refuse" })).status).toBe(200);
    const service = await ask({ service: "nobody", environment: "production", version: "1.0.0" });
    expect({ allowed: service.body.allowed, reasons: codes(service.body) }).toEqual({ allowed: false, reasons: ["unknown_service"] });
    const version = await ask({ service: "api", environment: "production", image: "ghcr.io/acme/api:latest" });
    expect({ allowed: version.body.allowed, version: version.body.version, reasons: codes(version.body) }).toEqual({ allowed: false, version: null, reasons: ["unknown_version"] });
    expect((await setGate("production", { unknown: "allow" })).status).toBe(200);
  });

  it("audit mode allows with the reasons", async () => {
    expect((await setGate("production", { mode: "audit" })).status).toBe(200);
    const res = await ask({ service: "web", environment: "production", version: "3.1.0" });
    expect({ allowed: res.body.allowed, mode: res.body.mode, reasons: codes(res.body) }).toEqual({ allowed: true, mode: "audit", reasons: ["not_in_previous_environment"] });
    expect((await setGate("production", { mode: "enforce" })).status).toBe(200);
  });

  it("bad input: 422 with a pointer or 413, and nothing stored", async () => {
    const before = await gateRows();
    const cases: [object, string][] = [
      [{ service: "web", environment: "nowhere", version: "1.0.0" }, "/environment"],
      [{ service: "web", environment: "production", version: "not a version!" }, "/version"],
      [{ service: "web", environment: "production", image: "Ghcr.io/UPPER/Case::x" }, "/image"],
      [{ service: "web", environment: "production" }, "/version"],
      [{ service: "web", environment: "production", version: "1.0.0", image: "nginx:1.27" }, "/version"],
    ];
    for (const [body, pointer] of cases) {
      const res = await ask(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.contentType).toBe("application/problem+json");
      expect(res.body.errors[0].pointer, JSON.stringify(body)).toBe(pointer);
    }
    const big = await request("POST", "/api/v1/gate", { token: ws.viewer, raw: JSON.stringify({ service: "web", environment: "production", version: "1.0.0", pad: "x".repeat(1_100_000) }), contentType: "application/json" });
    expect(big.status).toBe(413);
    expect(await gateRows()).toBe(before);
  });

  it("refuses a version past its end of life, each service asked at once judged on its own", async () => {
    expect((await setGate("production", { mode: "enforce", soak: "24h", refuse_eol: true })).status).toBe(200);
    const product = `gate-eol-${ws.id.slice(0, 8)}`;
    await testDb().eolProduct.create({ data: { name: product, fetchedAt: new Date(), data: { releases: [
      { name: "2.4", releaseDate: null, isEol: true, eolFrom: "2025-01-31", isMaintained: false, isLts: false, latest: null },
      { name: "3.0", releaseDate: null, isEol: false, eolFrom: null, isMaintained: true, isLts: false, latest: null },
    ] } } });
    const before = await testDb().service.findFirstOrThrow({ where: { workspaceId: ws.id, name: "web" }, select: { policy: true } });
    await testDb().service.updateMany({ where: { workspaceId: ws.id, name: "web" }, data: { policy: { eol: product } } });
    try {
      const ctx = { ...ws.ctx, config: { ...ws.ctx.config, eolEnabled: true }, now: new Date() };
      // Four at once: the last two wait for a read slot and are read together (fact-reads.ts); api's
      // answer must not take web's end of life.
      const answers = await Promise.all(["web", "api", "web", "api"].map((service) =>
        askGate({ ctx, input: { service, environment: "production", version: service === "web" ? "2.4.0" : "1.5.0" } })));
      const web = { allowed: false, reasons: [{ code: "eol_passed", detail: `${product} 2.4 reached its end of life on 2025-01-31.` }] };
      expect(answers.map((a) => ({ allowed: a.allowed, reasons: a.reasons }))).toEqual([web, { allowed: true, reasons: [] }, web, { allowed: true, reasons: [] }]);
    } finally {
      await testDb().service.updateMany({ where: { workspaceId: ws.id, name: "web" }, data: { policy: before.policy ?? {} } });
    }
  });

  it("keeps every decision in the audit log and counts it in /metrics", async () => {
    const before = await gateRows();
    await ask({ service: "web", environment: "production", version: "3.1.0" });
    expect(await gateRows()).toBe(before + 1);
    const [entry] = await testDb().$queryRaw<{ actor: string; subject: string; data: any }[]>`
      SELECT actor, subject, data FROM audit_log WHERE workspace_id = ${ws.id}::uuid AND action = 'gate.decided' ORDER BY id DESC LIMIT 1`;
    expect(entry).toMatchObject({ subject: "web", data: { via: "api", environment: "production", version: "3.1.0", allowed: false, reasons: [{ code: "not_in_previous_environment" }] } });
    expect(entry!.actor).toMatch(/^token:/);
    const metrics = await api(ws.viewer).get("/metrics");
    expect(metrics.text).toMatch(/^# TYPE driftwatch_gate_decisions_total counter$/m);
    expect(metrics.text).toMatch(/^driftwatch_gate_decisions_total\{environment="production",decision="refused"\} \d+$/m);
    expect(metrics.text).toMatch(/^driftwatch_gate_decisions_total\{environment="production",decision="warned"\} 1$/m);
  });
});

describe("the service page", () => {
  const gateLines = async (service: string) => {
    const res = await sessionRequest(cookie, "GET", `/services/${service}`);
    expect(res.status).toBe(200);
    return [...res.text.matchAll(/<li data-testid="gate-line"[^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[1]!.replace(/<!-- -->|<[^>]+>/g, ""));
  };

  it("says what production accepts now and what waits, and how long", async () => {
    expect(await gateLines("api")).toEqual(["production accepts 1.5.0 (3 days in staging)"]);
    const [line] = await gateLines("web");
    expect(line).toMatch(/^production 3\.0\.0 waits: 20 hours 5\d minutes of soak left in staging \(3\.0\.0 ran (2 hours 5\d minutes|3 hours) of 1 day\)$/);
  });
});

describe("driftwatch gate", () => {
  it("gives the API's answers: exit 0 allowed, 1 refused, 2 usage; one line per reason; --json the API body", async () => {
    const allowed = cli("--service", "web", "--environment", "production", "--version", "2.4.0");
    expect({ code: allowed.code, stdout: allowed.stdout }).toEqual({ code: 0, stdout: "web 2.4.0 in production: allowed\n" });
    const off = cli("--service", "web", "--environment", "staging", "--version", "9.9.9");
    expect({ code: off.code, stdout: off.stdout }).toEqual({ code: 0, stdout: "web 9.9.9 in staging: allowed (the gate is off in staging)\n" });
    const refused = cli("--service", "web", "--environment", "production", "--image", "ghcr.io/acme/web:3.1.0");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("web 3.1.0 in production: refused\nnot_in_previous_environment: 3.1.0 has not run in staging.\n");
    const json = cli("--service", "web", "--environment", "production", "--version", "3.1.0", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual((await ask({ service: "web", environment: "production", version: "3.1.0" })).body);
    const usage = cli("--service", "web", "--environment", "production");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe("driftwatch: give exactly one of --version and --image\n");
    const unknownEnv = cli("--service", "web", "--environment", "nowhere", "--version", "1.0.0");
    expect(unknownEnv.code).toBe(2);
    expect(unknownEnv.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  }, 240_000);
});

describe("the README's CI examples", () => {
  // The README's own blocks, run as a CI runner would, with `driftwatch` on the PATH and a
  // `docker` that only notes what it was asked to do.
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Promotion gate"), readme.indexOf("### Metrics and assistants"));
  const blocks = [...section.matchAll(/```(yaml|sh)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));
  const bin = mkdtempSync(path.join(os.tmpdir(), "gate-readme-"));
  const dockerLog = path.join(bin, "docker.log");
  writeFileSync(path.join(bin, "driftwatch"), `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, "bin/driftwatch.mjs")}" "$@"\n`);
  writeFileSync(path.join(bin, "docker"), `#!/bin/sh\necho "WEB_IMAGE=$WEB_IMAGE $*" >> "${dockerLog}"\n`);
  chmodSync(path.join(bin, "driftwatch"), 0o755);
  chmodSync(path.join(bin, "docker"), 0o755);
  const run = (script: string, env: Record<string, string>, args: string[] = []) => {
    const r = spawnSync("sh", ["-c", script, "sh", ...args], {
      cwd: bin, encoding: "utf8", timeout: 120_000,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, DRIFTWATCH_URL: baseUrl(), DRIFTWATCH_TOKEN: ws.viewer, ...env },
    });
    return { code: r.status, out: r.stdout + r.stderr };
  };

  it("has a GitHub Actions job, a GitLab CI job and a Compose deploy script", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["yaml", "yaml", "sh"]);
  });

  it("GitHub Actions: the step fails for a version the gate refuses, passes for one it allows", () => {
    const step = parseYaml(blocks[0]!.text).jobs.gate.steps[0] as { run: string; env: Record<string, string> };
    expect(step.run).toBe('driftwatch gate --service web --environment production --image "$IMAGE"');
    const image = (tag: string) => step.env.IMAGE!.replace("${{ github.ref_name }}", tag);
    const refused = run(step.run, { IMAGE: image("3.1.0") });
    expect(refused).toEqual({ code: 1, out: "web 3.1.0 in production: refused\nnot_in_previous_environment: 3.1.0 has not run in staging.\n" });
    expect(run(step.run, { IMAGE: image("2.4.0") }).code).toBe(0);
  }, 120_000);

  it("GitLab CI: the job's script fails for a refused version, passes for an allowed one", () => {
    const job = parseYaml(blocks[1]!.text)["gate:production"] as { script: string[]; variables: Record<string, string> };
    const script = job.script.join("\n");
    const image = (tag: string) => job.variables.IMAGE!.replace("$CI_COMMIT_TAG", tag);
    expect(run(script, { IMAGE: image("3.0.0") }).code).toBe(1);
    expect(run(script, { IMAGE: image("2.4.0") }).code).toBe(0);
  }, 120_000);

  it("Compose: the deploy script deploys only what the gate allows", () => {
    const script = blocks[2]!.text;
    const refused = run(script, {}, ["3.1.0"]);
    expect(refused.code).toBe(1);
    expect(() => readFileSync(dockerLog, "utf8")).toThrow();
    const allowed = run(script, {}, ["2.4.0"]);
    expect(allowed.code).toBe(0);
    expect(readFileSync(dockerLog, "utf8")).toBe("WEB_IMAGE=ghcr.io/acme/web:2.4.0 compose up -d web\n");
  }, 120_000);
});

describe("Kubernetes admission", () => {
  const KINDS = ["Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob"];
  const template = (tag: string) => ({ labels: { "app.kubernetes.io/name": "web" }, containers: [{ name: "web", image: `ghcr.io/acme/web:${tag}` }] });

  it("gives admins the address and a webhook configuration valid under the Kubernetes schema", async () => {
    expect((await api(ws.member).get("/api/v1/environments/production/admission")).status).toBe(403);
    const { url, webhook } = await admissionAddress();
    expect(url).toMatch(new RegExp(`^${baseUrl()}/admission/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
    expect(webhook.webhooks[0]).toMatchObject({ sideEffects: "None", admissionReviewVersions: ["v1"], failurePolicy: "Ignore", clientConfig: { url } });
    expect(webhook.webhooks[0].namespaceSelector.matchExpressions[0]).toMatchObject({ key: "kubernetes.io/metadata.name", operator: "NotIn" });
    const mod = (await import("kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration")) as any;
    expect(() => new mod.ValidatingWebhookConfiguration(webhook).validate()).not.toThrow();
    expect(strictFieldErrors([webhook])).toEqual([]);
    const fail = await sessionRequest(cookie, "GET", "/api/v1/environments/production/admission?failure_policy=Fail&namespaces=shop,payments");
    expect(fail.body.webhook.webhooks[0]).toMatchObject({ failurePolicy: "Fail", namespaceSelector: { matchExpressions: [{ operator: "In", values: ["shop", "payments"] }] } });
    expect(() => new mod.ValidatingWebhookConfiguration(fail.body.webhook).validate()).not.toThrow();
  });

  it.each(KINDS)("enforce: a %s running an unsoaked version is refused naming each reason, a soaked one allowed", async (kind) => {
    const { url } = await admissionAddress();
    const refused = await review(url, admissionReview(workloadObject(kind, "web", "shop", template("3.0.0"))));
    expect(refused.status).toBe(200);
    expect(refused.body.response.allowed).toBe(false);
    expect(refused.body.response.status.code).toBe(403);
    expect(refused.body.response.status.message).toMatch(/^Driftwatch gate refused this in production: web 3\.0\.0 \(container web\): soak_not_met: 20 hours 5\d minutes of soak left in staging/);
    const allowed = await review(url, admissionReview(workloadObject(kind, "web", "shop", template("2.4.0"))));
    expect(allowed.body).toEqual({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response: { uid: expect.any(String), allowed: true } });
  });

  it("judges every container and init container, and names services as the agent does", async () => {
    const { url } = await admissionAddress();
    const body = admissionReview(workloadObject("Deployment", "storefront", "shop", {
      annotations: { "driftwatch.io/service": "web" },
      containers: [{ name: "web", image: `ghcr.io/acme/web:2.4.0@${D(1)}` }, { name: "cache", image: "ghcr.io/acme/api:9.0.0" }],
      initContainers: [{ name: "migrate", image: "ghcr.io/acme/web:3.1.0" }],
    }));
    const res = await review(url, body);
    expect(res.body.response.uid).toBe((body.request as { uid: string }).uid);
    expect(res.body.response.allowed).toBe(true); // sidecars never seen follow `unknown` (allow)
    expect((await setGate("production", { unknown: "refuse" })).status).toBe(200);
    const strict = await review(url, body);
    expect(strict.body.response.allowed).toBe(false);
    expect(strict.body.response.status.message).toBe("Driftwatch gate refused this in production: "
      + "web 9.0.0 (container cache): unknown_service: Driftwatch has never seen container cache of web run anywhere.; "
      + "web 3.1.0 (container migrate): unknown_service: Driftwatch has never seen container migrate of web run anywhere.");
    expect((await setGate("production", { unknown: "allow" })).status).toBe(200);
  });

  it("audit: allowed, with each reason as a Kubernetes warning", async () => {
    expect((await setGate("production", { mode: "audit" })).status).toBe(200);
    const { url } = await admissionAddress();
    const res = await review(url, admissionReview(workloadObject("Deployment", "web", "shop", template("3.1.0"))));
    expect(res.body.response).toEqual({ uid: expect.any(String), allowed: true, warnings: ["web 3.1.0 (container web): not_in_previous_environment: 3.1.0 has not run in staging."] });
    expect((await setGate("production", { mode: "enforce" })).status).toBe(200);
  });

  it("gives the same answers as the API and the CLI", async () => {
    const { url } = await admissionAddress();
    for (const tag of ["2.4.0", "3.0.0", "3.1.0", "2.2.0"]) {
      const viaApi = await ask({ service: "web", environment: "production", image: `ghcr.io/acme/web:${tag}` });
      const viaCli = cli("--service", "web", "--environment", "production", "--image", `ghcr.io/acme/web:${tag}`);
      const viaK8s = await review(url, admissionReview(workloadObject("Deployment", "web", "shop", template(tag))));
      expect([viaCli.code === 0, viaK8s.body.response.allowed], tag).toEqual([viaApi.body.allowed, viaApi.body.allowed]);
    }
  }, 240_000);

  it("lets deletions and other kinds through; a malformed review is a 400, a wrong address a 404", async () => {
    const { url } = await admissionAddress();
    const del = await review(url, admissionReview(workloadObject("Deployment", "web", "shop", template("3.1.0")), "DELETE"));
    expect(del.body.response.allowed).toBe(true);
    const svc = admissionReview(workloadObject("Pod", "x", "shop", template("3.1.0")));
    (svc.request as any).kind = { group: "", version: "v1", kind: "Service" };
    expect((await review(url, svc)).body.response.allowed).toBe(true);
    for (const bad of [{}, { apiVersion: "admission.k8s.io/v1beta1", kind: "AdmissionReview", request: {} }, { ...admissionReview(workloadObject("Deployment", "web", "shop", template("1.0.0"))), request: { ...(admissionReview(workloadObject("Deployment", "web", "shop", template("1.0.0"))).request as object), object: { metadata: {}, spec: {} } } }]) {
      const res = await review(url, bad);
      expect(res.status, JSON.stringify(bad).slice(0, 200)).toBe(400);
      expect(res.type).toBe("application/problem+json");
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const notJson = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
    const u = new URL(url);
    const sig = u.pathname.split(".").at(-1)!;
    const forged = url.replace(`.${sig}`, `.${sig.replace(/^./, (c) => (c === "A" ? "B" : "A"))}`);
    const staging = (await admissionAddress("staging")).url;
    const swapped = url.replace(/\/admission\/([^.]+)\.[^.]+\./, `/admission/$1.${Buffer.from("staging").toString("base64url")}.`);
    for (const wrong of [forged, swapped, `${baseUrl()}/admission/nothing`, `${baseUrl()}/admission/a.b.c`]) {
      const res = await review(wrong, admissionReview(workloadObject("Pod", "web", "shop", template("2.4.0"))));
      expect(res.status, wrong).toBe(404);
      expect(res.text).not.toContain(ws.name);
      // Whatever the body: a malformed review or a kind the gate lets through says nothing either.
      expect((await review(wrong, {})).status, wrong).toBe(404);
      expect((await review(wrong, svc)).status, wrong).toBe(404);
    }
    expect(staging).not.toBe(url);
  });

  it("off: everything is admitted, and each decision is still kept", async () => {
    const { url } = await admissionAddress("staging");
    const before = await gateRows();
    const res = await review(url, admissionReview(workloadObject("Deployment", "web", "shop", template("9.9.9"))));
    expect(res.body.response).toEqual({ uid: expect.any(String), allowed: true });
    expect(await gateRows()).toBe(before + 1);
  });

  it("a dry run is answered and not recorded: the webhook declares no side effects", async () => {
    const { url } = await admissionAddress();
    const before = await gateRows();
    const body = admissionReview(workloadObject("Deployment", "web", "shop", template("3.0.0")));
    (body.request as { dryRun: boolean }).dryRun = true;
    const res = await review(url, body);
    expect(res.body.response.allowed).toBe(false);
    expect(res.body.response.status.message).toMatch(/soak_not_met/);
    expect(await gateRows()).toBe(before);
  });

  it("knows a digest that ran only in an environment it does not judge", async () => {
    // The gate reads history of production and the step before it, and any run of the image's digest.
    expect((await api(ws.member).post("/api/v1/environments", { name: "canary", position: 3 })).status).toBe(201);
    await report("canary", "k8s@canary", ago(10_000), [workload("worker", "ghcr.io/acme/worker:4.0.0", D(7), ago(48 * H))]);
    await settled(ws);
    const { url } = await admissionAddress();
    const res = await review(url, admissionReview(workloadObject("Deployment", "worker", "shop", {
      labels: { "app.kubernetes.io/name": "worker" }, containers: [{ name: "worker", image: `ghcr.io/acme/worker:latest@${D(7)}` }],
    })));
    expect(res.body.response.allowed).toBe(false);
    expect(res.body.response.status.message).toBe("Driftwatch gate refused this in production: worker 4.0.0 (container worker): not_in_previous_environment: 4.0.0 has not run in staging.");
  });

  it("knows a sidecar that ran only in an environment it does not judge: not unknown, and not in staging", async () => {
    await report("canary", "k8s@canary", ago(5_000), [
      workload("worker", "ghcr.io/acme/worker:4.0.0", D(7), ago(48 * H)),
      workload("worker", "ghcr.io/acme/logger:1.0.0", null, ago(48 * H), { container: "logger", main: false }),
    ]);
    await settled(ws);
    const { url } = await admissionAddress();
    const res = await review(url, admissionReview(workloadObject("Deployment", "worker", "shop", {
      labels: { "app.kubernetes.io/name": "worker" },
      containers: [{ name: "worker", image: `ghcr.io/acme/worker:latest@${D(7)}` }, { name: "logger", image: "ghcr.io/acme/logger:1.0.0" }],
    })));
    expect(res.body.response.status.message).toBe("Driftwatch gate refused this in production: "
      + "worker 4.0.0 (container worker): not_in_previous_environment: 4.0.0 has not run in staging.; "
      + "worker 1.0.0 (container logger): not_in_previous_environment: 1.0.0 has not run in staging.");
  });

  it("reviews that arrive together are judged as each alone and logged once each, never on another workspace's facts", async () => {
    // Another workspace where web 3.0.0 soaked 100 h in staging and 2.4.0 never ran: the opposite answers.
    const other = await makeWorkspace("gate-other");
    const otherCookie = await sessionCookie(other.owner.email, other.owner.password);
    expect((await api(other.member).post("/api/v1/environments", { name: "staging", position: 1 })).status).toBe(201);
    expect((await api(other.member).post("/api/v1/environments", { name: "production", position: 2 })).status).toBe(201);
    const res = await api(other.agentKey).post("/api/v1/agent/report", {
      environment: "staging", target: { name: "k8s@staging", kind: "kubernetes" }, observed_at: ago(10_000), workloads: [workload("web", "ghcr.io/acme/web:3.0.0", D(3), ago(100 * H))],
    });
    expect(res.status).toBe(202);
    await settled(other);
    expect((await sessionRequest(otherCookie, "PATCH", "/api/v1/environments/production", { body: { gate: { mode: "enforce", soak: "24h" } } })).status).toBe(200);
    const otherUrl = ((await sessionRequest(otherCookie, "GET", "/api/v1/environments/production/admission")).body as { url: string }).url;
    const { url } = await admissionAddress();
    const otherRows = async () => Number((await testDb().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM audit_log WHERE workspace_id = ${other.id}::uuid AND action = 'gate.decided'`)[0]!.n);

    expect((await setGate("production", { mode: "enforce", soak: "24h" })).status).toBe(200);

    // Each workspace asked about each tag, five times over.
    const asks = Array.from({ length: 40 }, (_, i) => ({ url: i % 2 === 0 ? url : otherUrl, tag: ["2.4.0", "3.0.0", "3.1.0", "2.2.0"][Math.floor(i / 2) % 4]! }));
    const alone = new Map<string, boolean>();
    for (const a of asks.slice(0, 8)) alone.set(`${a.url} ${a.tag}`, (await review(a.url, admissionReview(workloadObject("Deployment", "web", "shop", template(a.tag))))).body.response.allowed);
    // 2.4.0 soaked here and never ran there; 3.0.0 soaked only there; 2.2.0 is a rollback here only.
    expect([...alone.values()]).toEqual([true, false, false, true, false, false, true, false]);
    const [mine, theirs] = [await gateRows(), await otherRows()];
    const together = await Promise.all(asks.map((a) => review(a.url, admissionReview(workloadObject("Deployment", "web", "shop", template(a.tag))))));
    expect(together.map((r) => r.body.response.allowed)).toEqual(asks.map((a) => alone.get(`${a.url} ${a.tag}`)));
    expect([await gateRows(), await otherRows()]).toEqual([mine + 20, theirs + 20]);
  });

  it("badges reset stops every webhook address", async () => {
    const { url } = await admissionAddress();
    const r = spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "badges", "reset", "--workspace", ws.name, "--json"], {
      cwd: ROOT, env: { ...process.env, DATABASE_URL: inject("databaseUrl") }, encoding: "utf8", timeout: 120_000,
    });
    expect(r.status).toBe(0);
    expect((await review(url, admissionReview(workloadObject("Pod", "web", "shop", template("2.4.0"))))).status).toBe(404);
    const fresh = await admissionAddress();
    expect(fresh.url).not.toBe(url);
    expect((await review(fresh.url, admissionReview(workloadObject("Pod", "web", "shop", template("2.4.0"))))).status).toBe(200);
  }, 120_000);
});

describe("gate_refused notifications", () => {
  const hits: { event: string; body: any }[] = [];
  let server: http.Server;
  let url = "";
  const refusedEvents = async () => testDb().event.count({ where: { workspaceId: ws.id, type: "gate_refused" } });
  // The shared server's tick delivers too; either worker may take a delivery, never both.
  const pump = async () => {
    await routeEvents({ ctx: { db: testDb(), now: new Date() } });
    await deliverDue({ ctx: { db: testDb(), config: ws.ctx.config, now: new Date() }, input: { workspaceId: ws.id } });
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        hits.push({ event: String(req.headers["x-driftwatch-event"]), body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    // Refusals asked earlier in this file are routed now, before the rule exists.
    await routeEvents({ ctx: { db: testDb(), now: new Date() } });
    await createRule({ ctx: ws.ctx, input: { name: "gate", channel: "webhook", config: { url, secret: "a-webhook-secret-of-some-length" }, events: ["gate_refused"], allow_private: true } });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a refused ask reaches a rule that names gate_refused exactly once; an allowed one not at all", async () => {
    expect((await setGate("production", { mode: "enforce", soak: "24h" })).status).toBe(200);
    // 3.0.2 was never asked about before in this file: 3.0.0, refused earlier before the rule existed,
    // would be folded into that hour's event.
    const refused = await ask({ service: "web", environment: "production", image: "ghcr.io/acme/web:3.0.2" });
    expect(refused.body.allowed).toBe(false);
    expect(refused.body).not.toHaveProperty("team");
    for (let i = 0; i < 50 && hits.length === 0; i++) {
      await pump();
      if (hits.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(hits).toHaveLength(1);
    expect(hits[0]!.event).toBe("gate_refused");
    expect(hits[0]!.body).toEqual({
      event: "gate_refused", id: expect.any(String), workspace: ws.name, service: "web", environment: "production",
      version: "3.0.2", image: "ghcr.io/acme/web:3.0.2", mode: "enforce",
      reasons: [{ code: "not_in_previous_environment", detail: "3.0.2 has not run in staging." }],
      decided_at: expect.any(String), url: `${baseUrl()}/services/web`, team: null,
    });

    const before = await refusedEvents();
    const allowed = await ask({ service: "web", environment: "production", version: "2.4.0" });
    expect(allowed.body.allowed).toBe(true);
    // Audit mode warns and stops nothing: no notification either.
    expect((await setGate("production", { mode: "audit" })).status).toBe(200);
    const warned = await ask({ service: "web", environment: "production", version: "3.0.0" });
    expect(warned.body).toMatchObject({ allowed: true, reasons: [{ code: "soak_not_met" }] });
    expect((await setGate("production", { mode: "enforce" })).status).toBe(200);
    expect(await refusedEvents()).toBe(before);
    await pump();
    await new Promise((r) => setTimeout(r, 300));
    await pump();
    expect(hits).toHaveLength(1);
  }, 60_000);

  it("a refused admission review is one event per refused version an hour, carrying its image", async () => {
    const gateEvents = async () => testDb().event.findMany({ where: { workspaceId: ws.id, type: "gate_refused" }, select: { id: true, payload: true } });
    const before = await gateEvents();
    const { url } = await admissionAddress();
    const deploy = (image: string) => admissionReview(workloadObject("Deployment", "web", "shop", { labels: { "app.kubernetes.io/name": "web" }, containers: [{ name: "web", image }] }));
    // web 3.0.2 was refused in production within this hour (the ask above): refused and logged again, not notified again.
    expect((await review(url, deploy("ghcr.io/acme/web:3.0.2"))).body.response.allowed).toBe(false);
    expect(await gateEvents()).toHaveLength(before.length);
    expect((await review(url, deploy("ghcr.io/acme/web:3.2.0"))).body.response.allowed).toBe(false);
    const added = (await gateEvents()).filter((e) => !before.some((b) => b.id === e.id));
    expect(added.map((e) => e.payload)).toEqual([expect.objectContaining({ service: "web", version: "3.2.0", image: "ghcr.io/acme/web:3.2.0", mode: "enforce", reasons: [expect.objectContaining({ code: "not_in_previous_environment" })] })]);
  });
});
