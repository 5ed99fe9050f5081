// The Helm chart under deploy/helm/driftwatch, rendered by the real helm for the three ways it is
// installed, and checked against the Kubernetes object schemas. No Kubernetes server runs here:
// kubectl reads the objects offline and kubernetes-models validates them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { strictFieldErrors } from "@/tests/support/k8s-strict";
import { kubeTools } from "@/tests/support/kube-tools";
import {
  CHART_DIR, ciValues, helm, kindsOf, objectOf, parseObjects, podSpecs, renderArgs, renderChart, renderText, runTool,
  type Deployment, type K8sObject,
} from "@/tests/support/helm-chart";

const CASES = {
  "embedded (defaults)": [] as string[],
  "embedded with the agent": [ciValues("embedded")],
  "external database, worker and Ingress": [ciValues("external")],
  "agent only": [ciValues("agent-only")],
};

type Validating = { validate(): void };

/** The kubernetes-models class for an object's apiVersion and kind (`v1/Service`, `apps/v1/Deployment`). */
async function schemaModel(o: K8sObject): Promise<Validating> {
  const mod = (await import(`kubernetes-models/${o.apiVersion}/${o.kind}`)) as Record<string, new (data: object) => Validating>;
  const Model = mod[o.kind];
  if (!Model) throw new Error(`kubernetes-models has no ${o.apiVersion} ${o.kind}`);
  return new Model(o);
}

const env = (d: Deployment, container = 0) => d.spec.template.spec.containers[container]!.env ?? [];
const envNamed = (d: Deployment, name: string) => env(d).find((e) => e.name === name);

beforeAll(async () => {
  await kubeTools();
}, 120_000);

describe("helm lint", () => {
  it.each(Object.entries(CASES))("passes --strict for %s", async (_, values) => {
    const r = await helm(["lint", "--strict", CHART_DIR, ...values.flatMap((v) => ["--values", v])]);
    expect(r.stdout + r.stderr).toContain("1 chart(s) linted, 0 chart(s) failed");
    expect(r.stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
    expect(r.code).toBe(0);
  });
});

describe("helm template", () => {
  it.each(Object.entries(CASES))("renders %s into objects valid under the Kubernetes schemas, which kubectl reads", async (_, values) => {
    const text = await renderText({ values });
    const objects = parseObjects(text);
    expect(objects.length).toBeGreaterThan(0);
    for (const o of objects) {
      const model = await schemaModel(o);
      expect(() => model.validate(), `${o.kind}/${o.metadata.name}`).not.toThrow();
      expect(o.metadata.labels?.["app.kubernetes.io/instance"], `${o.kind}/${o.metadata.name}`).toBe("dw");
    }
    // kubectl maps every object to a resource it knows, without a server.
    const kubectl = await runTool("kubectl", ["label", "--local", "-f", "-", "checked=true", "-o", "name"], text);
    expect(kubectl.stderr).toBe("");
    expect(kubectl.stdout.trim().split("\n").length).toBe(objects.length);
    // Each workload's pods are picked by its own selector, and a Service finds pods.
    for (const d of objects.filter((o): o is Deployment => o.kind === "Deployment")) {
      expect(d.spec.template.metadata.labels).toMatchObject(d.spec.selector.matchLabels);
    }
    for (const s of objects.filter((o) => o.kind === "Service")) {
      const selector = (s as K8sObject & { spec: { selector: Record<string, string> } }).spec.selector;
      expect(objects.some((o) => o.kind === "Deployment" && Object.entries(selector).every(([k, v]) => (o as Deployment).spec.template.metadata.labels[k] === v))).toBe(true);
    }
  });

  it("a schema check catches a wrong field type (the check can fail)", async () => {
    const [web] = (await renderChart()).filter((o) => o.kind === "Deployment") as Deployment[];
    const broken = { ...web!, spec: { ...web!.spec, replicas: "one" } };
    const model = await schemaModel(broken as unknown as K8sObject);
    expect(() => model.validate()).toThrow(/replicas must be integer/);
  });

  it("every field of every rendered object is one its Kubernetes type knows (strict, as kubectl --validate=strict)", async () => {
    const rendered = await Promise.all(Object.values(CASES).map((values) => renderChart({ values })));
    // Two broken copies go along (one compiler run for all), to show the check can fail: a
    // misspelt probe and a string where a number belongs are each caught, and nothing else is.
    const web = structuredClone(objectOf<Deployment>(rendered[0]!, "Deployment", "dw-driftwatch"));
    const container = web.spec.template.spec.containers[0]!;
    container.readinesProbe = container.readinessProbe;
    const service = structuredClone(objectOf(rendered[0]!, "Service", "dw-driftwatch")) as K8sObject & { spec: { ports: { port: unknown }[] } };
    service.spec.ports[0]!.port = "80";
    const errors = strictFieldErrors([...rendered.flat(), web, service]);
    expect(errors).toEqual([
      expect.stringMatching(/^Deployment\/dw-driftwatch: .*'"readinesProbe"' does not exist in type 'IContainer'/),
      expect.stringMatching(/^Service\/dw-driftwatch: Type 'string' is not assignable to type 'number'/),
    ]);
  }, 60_000);

  it("defaults: one web replica with the embedded database on a PersistentVolumeClaim, the scheduler inside", async () => {
    const objects = await renderChart();
    expect(kindsOf(objects)).toEqual(["Deployment/dw-driftwatch", "PersistentVolumeClaim/dw-driftwatch-data", "Secret/dw-driftwatch", "Service/dw-driftwatch"]);
    const web = objectOf<Deployment>(objects, "Deployment", "dw-driftwatch");
    expect(web.spec.replicas).toBe(1);
    expect(web.spec.strategy?.type).toBe("Recreate");
    const pod = web.spec.template.spec;
    const c = pod.containers[0]!;
    expect(c.args).toEqual(["start"]);
    expect(c.volumeMounts).toContainEqual({ name: "data", mountPath: "/data" });
    expect(pod.volumes).toContainEqual({ name: "data", persistentVolumeClaim: { claimName: "dw-driftwatch-data" } });
    expect(envNamed(web, "DATABASE_URL")).toBeUndefined();
    expect(envNamed(web, "DRIFTWATCH_DATA_DIR")?.value).toBe("/data");
    expect(envNamed(web, "HOST")?.value).toBe("0.0.0.0");
    expect(c.ports).toEqual([{ name: "http", containerPort: 3000, protocol: "TCP" }]);
    for (const probe of ["startupProbe", "livenessProbe", "readinessProbe"]) {
      expect(c[probe], probe).toMatchObject({ httpGet: { path: "/api/health", port: "http" } });
    }
    expect(c.resources).toMatchObject({ requests: { cpu: expect.any(String), memory: expect.any(String) }, limits: { memory: expect.any(String) } });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(objectOf(objects, "PersistentVolumeClaim", "dw-driftwatch-data")).toMatchObject({ spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "5Gi" } } } });
  });

  it("external database: replicas, a worker running the scheduler, the web serving only, an Ingress to the Service", async () => {
    const objects = await renderChart({ values: [ciValues("external")] });
    expect(kindsOf(objects)).toEqual(["Deployment/dw-driftwatch", "Deployment/dw-driftwatch-worker", "Ingress/dw-driftwatch", "Service/dw-driftwatch"]);
    const web = objectOf<Deployment>(objects, "Deployment", "dw-driftwatch");
    const worker = objectOf<Deployment>(objects, "Deployment", "dw-driftwatch-worker");
    expect(web.spec.replicas).toBe(3);
    expect(web.spec.strategy).toBeUndefined();
    expect(web.spec.template.spec.containers[0]!.args).toEqual(["start", "--no-scheduler"]);
    expect(worker.spec.template.spec.containers[0]!.args).toEqual(["worker"]);
    for (const d of [web, worker]) {
      expect(envNamed(d, "DATABASE_URL")).toEqual({ name: "DATABASE_URL", valueFrom: { secretKeyRef: { name: "driftwatch-database", key: "DATABASE_URL" } } });
      expect(envNamed(d, "AUTH_SECRET")?.valueFrom?.secretKeyRef?.name).toBe("driftwatch-secrets");
      expect(envNamed(d, "DRIFTWATCH_GITLAB_URL")?.value).toBe("https://gitlab.example.com");
      expect(envNamed(d, "DRIFTWATCH_BASE_URL")?.value).toBe("https://driftwatch.example.com");
      expect(d.spec.template.spec.volumes?.find((v) => v.name === "data")).toEqual({ name: "data", emptyDir: {} });
    }
    const ingress = objectOf(objects, "Ingress", "dw-driftwatch") as K8sObject & { spec: { rules: { host: string; http: { paths: { backend: unknown }[] } }[] } };
    expect(ingress.spec.rules[0]!.host).toBe("driftwatch.example.com");
    expect(ingress.spec.rules[0]!.http.paths[0]!.backend).toEqual({ service: { name: "dw-driftwatch", port: { name: "http" } } });
  });

  it("agent only: the agent, its service account and role, nothing of the server", async () => {
    const objects = await renderChart({ values: [ciValues("agent-only")] });
    expect(kindsOf(objects)).toEqual(["ClusterRole/dw-driftwatch-agent", "ClusterRoleBinding/dw-driftwatch-agent", "Deployment/dw-driftwatch-agent", "ServiceAccount/dw-driftwatch-agent"]);
    const agent = objectOf<Deployment>(objects, "Deployment", "dw-driftwatch-agent");
    const pod = agent.spec.template.spec;
    expect(pod.serviceAccountName).toBe("dw-driftwatch-agent");
    expect(pod.containers[0]!.args).toEqual(["agent", "--in-cluster", "--environment", "staging", "--url", "https://driftwatch.example.com", "--interval", "60"]);
    expect(envNamed(agent, "DRIFTWATCH_AGENT_KEY")).toEqual({ name: "DRIFTWATCH_AGENT_KEY", valueFrom: { secretKeyRef: { name: "driftwatch-agent", key: "DRIFTWATCH_AGENT_KEY" } } });
  });

  it("the agent beside the server reports to the release's own Service, mapping namespaces", async () => {
    const objects = await renderChart({ values: [ciValues("embedded")] });
    const args = objectOf<Deployment>(objects, "Deployment", "dw-driftwatch-agent").spec.template.spec.containers[0]!.args;
    expect(args).toEqual(["agent", "--in-cluster", "--environment", "production", "--url", "http://dw-driftwatch.driftwatch.svc:80", "--interval", "60", "--namespace", "staging=staging"]);
  });
});

describe("the README's Helm section", () => {
  it("its external-database values file renders what it promises", async () => {
    const readme = readFileSync(path.join(CHART_DIR, "../../../README.md"), "utf8");
    const block = /values file like this one[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const dir = mkdtempSync(path.join(os.tmpdir(), "dw-readme-"));
    try {
      writeFileSync(path.join(dir, "my-values.yaml"), block!);
      const objects = await renderChart({ release: "driftwatch", values: [path.join(dir, "my-values.yaml")] });
      expect(kindsOf(objects)).toEqual(["Deployment/driftwatch", "Deployment/driftwatch-worker", "Ingress/driftwatch", "Secret/driftwatch", "Service/driftwatch"]);
      const web = objectOf<Deployment>(objects, "Deployment", "driftwatch");
      expect(web.spec.replicas).toBe(3);
      expect(web.spec.template.spec.containers[0]!.image).toBe("registry.example.com/acme/driftwatch:0.1.0");
      expect(envNamed(web, "DATABASE_URL")?.valueFrom?.secretKeyRef).toEqual({ name: "driftwatch-database", key: "DATABASE_URL" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the chart refuses what cannot work, with one clear line", () => {
  it.each([
    ["two web replicas on the embedded database", ["web.replicas=2"], /web\.replicas=2 needs database\.type=external: the embedded database lives on one volume/],
    ["a separate worker on the embedded database", ["worker.enabled=true"], /worker\.enabled=true needs database\.type=external/],
    ["an external database without its Secret", ["database.type=external"], /database\.type=external needs database\.external\.existingSecret/],
    ["an agent without an environment", ["agent.enabled=true", "agent.key=k"], /agent\.enabled=true needs agent\.environment/],
    ["an agent without a key", ["agent.enabled=true", "agent.environment=prod"], /agent\.enabled=true needs an agent key/],
    ["an agent alone without a server address", ["web.enabled=false", "agent.enabled=true", "agent.environment=prod", "agent.key=k"], /needs agent\.url/],
    ["a secret among the plain settings", ["config.DRIFTWATCH_SMTP_URL=smtp://u:p@mail:25"], /config\.DRIFTWATCH_SMTP_URL is secret: set it under secrets/],
    ["a value of the wrong type (schema)", ["web.replicas=two"], /\/web\/replicas.*want integer/],
    ["an unknown database type (schema)", ["database.type=mysql"], /\/database\/type.*'embedded', 'external'/],
    ["a misspelt top-level value (schema)", ["replicaCount=2"], /additional properties 'replicaCount' not allowed/],
    ["a Docker Hub user name without its token (schema)", ["secrets.dockerHubUsername=alice"], /\/secrets\/dockerHubToken.*minLength/],
    ["a Docker Hub token without its user name (schema)", ["secrets.dockerHubToken=dckr_pat_0123456789"], /\/secrets\/dockerHubUsername.*minLength/],
    ["a Docker Hub user name among the plain settings, where its token cannot follow", ["config.DRIFTWATCH_DOCKERHUB_USERNAME=alice"], /config\.DRIFTWATCH_DOCKERHUB_USERNAME: set the Docker Hub sign-in as secrets\.dockerHubUsername and secrets\.dockerHubToken/],
  ])("%s", async (_, set, message) => {
    const r = await helm(["template", ...renderArgs({ set })]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });

  it("passes the Docker Hub sign-in from its own Secret, or from an existing one, to the web server and the worker", async () => {
    const given = await renderChart({ set: ["secrets.dockerHubUsername=alice", "secrets.dockerHubToken=dckr_pat_0123456789"] });
    const secret = objectOf(given, "Secret", "dw-driftwatch") as K8sObject & { data: Record<string, string> };
    expect(Buffer.from(secret.data.DRIFTWATCH_DOCKERHUB_USERNAME!, "base64").toString("utf8")).toBe("alice");
    expect(Buffer.from(secret.data.DRIFTWATCH_DOCKERHUB_TOKEN!, "base64").toString("utf8")).toBe("dckr_pat_0123456789");
    for (const o of given) {
      const model = await schemaModel(o);
      expect(() => model.validate(), `${o.kind}/${o.metadata.name}`).not.toThrow();
    }
    const web = objectOf<Deployment>(given, "Deployment", "dw-driftwatch");
    for (const key of ["DRIFTWATCH_DOCKERHUB_USERNAME", "DRIFTWATCH_DOCKERHUB_TOKEN"]) {
      expect(envNamed(web, key)).toEqual({ name: key, valueFrom: { secretKeyRef: { name: "dw-driftwatch", key, optional: true } } });
    }
    const existing = await renderChart({ values: [ciValues("external")] });
    for (const d of [objectOf<Deployment>(existing, "Deployment", "dw-driftwatch"), objectOf<Deployment>(existing, "Deployment", "dw-driftwatch-worker")]) {
      expect(envNamed(d, "DRIFTWATCH_DOCKERHUB_TOKEN")?.valueFrom?.secretKeyRef).toEqual({ name: "driftwatch-secrets", key: "DRIFTWATCH_DOCKERHUB_TOKEN", optional: true });
      expect(envNamed(d, "DRIFTWATCH_DOCKERHUB_USERNAME")?.valueFrom?.secretKeyRef).toEqual({ name: "driftwatch-secrets", key: "DRIFTWATCH_DOCKERHUB_USERNAME", optional: true });
    }
    // A mirror is a plain setting.
    const mirrored = await renderChart({ set: ["config.DRIFTWATCH_DOCKERHUB_MIRROR=https://mirror.example.com"] });
    expect(envNamed(objectOf<Deployment>(mirrored, "Deployment", "dw-driftwatch"), "DRIFTWATCH_DOCKERHUB_MIRROR")?.value).toBe("https://mirror.example.com");
  });

  it("accepts one web replica on the embedded database, and many on an external one", async () => {
    await expect(renderText({ set: ["web.replicas=1"] })).resolves.toContain("replicas: 1");
    await expect(renderText({ set: ["web.replicas=4", "database.type=external", "database.external.existingSecret=db"] })).resolves.toContain("replicas: 4");
  });
});

describe("secrets stay in Secrets", () => {
  const SECRETS = {
    githubToken: "ghp_plainGithubTokenValue000001",
    gitlabToken: "glpat-plainGitlabTokenValue0002",
    smtpUrl: "smtp://mailer:plainSmtpPassword0003@mail.example.com:587",
    oidcClientSecret: "plainOidcClientSecret0004",
    authSecret: "plainAuthSecretValueAtLeast32Chars0005",
    dockerHubUsername: "plainhubuser0007",
    dockerHubToken: "dckr_pat_plainHubToken0008",
  };
  const AGENT_KEY = "dwa_plainAgentKeyValue0006";
  let dir: string;
  let valuesFile: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dw-helm-"));
    valuesFile = path.join(dir, "values.yaml");
    writeFileSync(valuesFile, JSON.stringify({ secrets: SECRETS, agent: { enabled: true, environment: "prod", key: AGENT_KEY } }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const SECRET_ENV = /SECRET|TOKEN|PASSWORD|DATABASE_URL|SMTP_URL|AGENT_KEY/;

  it.each([
    ["given as values", () => [valuesFile]],
    ["generated", () => [ciValues("embedded")]],
    ["from existing Secrets", () => [ciValues("external")]],
  ])("secret values %s reach the pods only through secretKeyRef, never in the pod spec or the notes", async (_, values) => {
    const files = values();
    const objects = await renderChart({ values: files });
    const secretObjects = objects.filter((o) => o.kind === "Secret") as (K8sObject & { data: Record<string, string> })[];
    const secretValues = secretObjects.flatMap((s) => Object.values(s.data).map((v) => Buffer.from(v, "base64").toString("utf8")));
    const plain = files.includes(valuesFile) ? [...Object.values(SECRETS), AGENT_KEY] : [];
    for (const p of plain) expect(secretValues).toContain(p);

    const specs = podSpecs(objects);
    expect(specs.length).toBeGreaterThan(0);
    for (const { owner, spec } of specs) {
      for (const c of spec.containers) {
        for (const e of c.env ?? []) {
          if (!SECRET_ENV.test(e.name)) continue;
          expect(e.value, `${owner} ${c.name} ${e.name}`).toBeUndefined();
          expect(e.valueFrom?.secretKeyRef, `${owner} ${c.name} ${e.name}`).toBeDefined();
        }
        expect(c.args?.some((a) => SECRET_ENV.test(a)) ?? false, `${owner} args`).toBe(false);
      }
    }
    // Neither the given nor the generated values appear outside the Secrets, nor in the notes
    // that `helm install` prints.
    const outside = JSON.stringify(objects.filter((o) => o.kind !== "Secret"));
    const install = await helm(["install", "--dry-run=client", ...renderArgs({ values: files })]);
    expect(install.code).toBe(0);
    const notes = install.stdout.slice(install.stdout.indexOf("NOTES:"));
    expect(notes).toContain("Driftwatch");
    const installSecrets = parseObjects(install.stdout.slice(0, install.stdout.indexOf("NOTES:")).replace(/^[\s\S]*?MANIFEST:\n/, ""))
      .filter((o) => o.kind === "Secret")
      .flatMap((s) => Object.values((s as K8sObject & { data: Record<string, string> }).data).map((v) => Buffer.from(v, "base64").toString("utf8")));
    for (const value of [...plain, ...secretValues, ...installSecrets]) {
      expect(outside.includes(value), "a secret in a non-Secret object").toBe(false);
      expect(notes.includes(value), "a secret in the notes").toBe(false);
    }
  });

  it("a generated session secret is long and random, and a given one is kept", async () => {
    const generated = async () => {
      const s = objectOf(await renderChart(), "Secret", "dw-driftwatch") as K8sObject & { data: Record<string, string> };
      return Buffer.from(s.data.AUTH_SECRET!, "base64").toString("utf8");
    };
    const [a, b] = [await generated(), await generated()];
    expect(a).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(a).not.toBe(b);
    const given = objectOf(await renderChart({ values: [valuesFile] }), "Secret", "dw-driftwatch") as K8sObject & { data: Record<string, string> };
    expect(Buffer.from(given.data.AUTH_SECRET!, "base64").toString("utf8")).toBe(SECRETS.authSecret);
  });
});
