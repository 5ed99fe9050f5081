// Runs the real `helm` (see kube-tools.ts) on deploy/helm/driftwatch and parses what it renders.
import { execFile } from "node:child_process";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { kubeTools } from "./kube-tools";

export const CHART_DIR = path.resolve(import.meta.dirname, "../../deploy/helm/driftwatch");
export const ciValues = (name: string) => path.join(CHART_DIR, "ci", `${name}-values.yaml`);

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
};

export type Container = {
  name: string;
  image: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }[];
  volumeMounts?: { name: string; mountPath: string }[];
  [field: string]: unknown;
};

export type PodSpec = {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  containers: Container[];
  volumes?: { name: string; persistentVolumeClaim?: { claimName: string }; emptyDir?: object }[];
};

export type Deployment = K8sObject & {
  spec: { replicas: number; strategy?: { type: string }; selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> }; spec: PodSpec } };
};

export type RenderOptions = { values?: string[]; set?: string[]; release?: string; namespace?: string };

export type RunResult = { code: number; stdout: string; stderr: string };

export async function runTool(tool: "helm" | "kubectl", args: string[], input?: string): Promise<RunResult> {
  const bin = (await kubeTools())[tool];
  return new Promise((resolve, reject) => {
    // No kubeconfig: nothing here may reach a cluster the developer happens to be signed in to.
    const env = { ...process.env, KUBECONFIG: path.join(CHART_DIR, "no-kubeconfig") };
    const child = execFile(bin, args, { env, maxBuffer: 16 * 1024 * 1024, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== "number") return reject(err);
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
    child.stdin?.end(input ?? "");
  });
}

export const helm = (args: string[]) => runTool("helm", args);

export function renderArgs(opts: RenderOptions): string[] {
  return [
    opts.release ?? "dw",
    CHART_DIR,
    "--namespace", opts.namespace ?? "driftwatch",
    ...(opts.values ?? []).flatMap((f) => ["--values", f]),
    ...(opts.set ?? []).flatMap((s) => ["--set", s]),
  ];
}

/** `helm template` output as YAML text; throws with helm's own message when it refuses. */
export async function renderText(opts: RenderOptions = {}): Promise<string> {
  const r = await helm(["template", ...renderArgs(opts)]);
  if (r.code !== 0) throw new Error(r.stderr.trim());
  return r.stdout;
}

export function parseObjects(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => {
      if (d.errors.length) throw new Error(`helm rendered invalid YAML: ${d.errors[0]!.message}`);
      return d.toJSON() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

export const renderChart = async (opts: RenderOptions = {}) => parseObjects(await renderText(opts));

export function objectOf<T extends K8sObject = K8sObject>(objects: K8sObject[], kind: string, name: string): T {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(", ")}`);
  return found as T;
}

export const kindsOf = (objects: K8sObject[]) => objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();

export function podSpecs(objects: K8sObject[]): { owner: string; spec: PodSpec }[] {
  return objects
    .filter((o) => ["Deployment", "StatefulSet", "DaemonSet", "Job"].includes(o.kind))
    .map((o) => ({ owner: `${o.kind}/${o.metadata.name}`, spec: (o as Deployment).spec.template.spec }));
}
