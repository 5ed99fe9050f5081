// The agent report (POST /api/v1/agent/report): what an agent sends, shared by the agent, its runtime adapters and intake.
import { z } from "zod";
import { CHART_SERVICE_PREFIX, serviceKindOf } from "./charts";

const digest = z.string().regex(/^sha256:[a-f0-9]{64}$/);

/** A Helm 3 release's deployed revision (a `helm_release` workload). */
export const chartSchema = z
  .object({
    name: z.string().min(1).max(200),
    version: z.string().min(1).max(200),
    app_version: z.string().max(200).nullable(),
    namespace: z.string().min(1).max(253),
    release: z.string().min(1).max(253),
    revision: z.number().int().positive(),
    // Where the agent was told the chart comes from: used only when the server may call its host.
    repository: z.string().max(500).nullable().optional(),
    // The chart's `home` (Chart.yaml): tells apart publishers of one chart name in the catalog; never called.
    home: z.string().max(500).nullable().optional(),
  })
  .strict();

export const workloadKindSchema = z.enum(["image", "helm_release"]);

export const workloadSchema = z
  .object({
    service: z.string().min(1).max(200),
    container: z.string().max(200),
    main: z.boolean(),
    image: z.string().min(1).max(500),
    digest: digest.nullable(),
    platform_digest: digest.nullable(),
    platform: z.string().max(100).nullable(),
    since: z.iso.datetime({ offset: true }),
    application: z.string().max(200).optional(), // compose project / app.kubernetes.io/part-of
    kind: workloadKindSchema.optional(), // absent: image
    chart: chartSchema.optional(),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (w.kind === "helm_release" && !w.chart) ctx.addIssue({ code: "custom", path: ["chart"], message: "is required for a helm_release workload" });
    if (w.kind !== "helm_release" && w.chart) ctx.addIssue({ code: "custom", path: ["chart"], message: "is only for a helm_release workload" });
    if (w.kind !== "helm_release" && serviceKindOf(w.service) === "chart") {
      ctx.addIssue({ code: "custom", path: ["service"], message: `may not start with "${CHART_SERVICE_PREFIX}": that names a Helm release's service` });
    }
  });

// What the agent looked up in private registries (the server cannot reach them).
export const registryResultSchema = z
  .object({
    repository: z.string().min(1).max(500), // host/path
    tags: z.array(z.string().max(200)).max(10_000),
    digests: z.array(z.object({ tag: z.string().max(200), digest }).strict()).max(10_000),
    resolved: z.array(z.object({ digest, tag: z.string().max(200).nullable() }).strict()).max(10_000),
    error: z.string().max(1000).nullable(),
  })
  .strict();

// compose_git: an agent that read Compose files from Git itself (private repositories); its rows are declarations.
export const targetKindSchema = z.enum(["docker", "kubernetes", "swarm", "nomad", "compose_git"]);

/** Where a compose_git target's files are: shown beside server-read ones. Credentials in the URL are never kept. */
export const composeSourceSchema = z
  .object({
    repository_url: z.string().min(1).max(1000),
    branch: z.string().min(1).max(200),
    paths: z.array(z.string().min(1).max(500)).min(1).max(20),
  })
  .strict();

export const reportTargetSchema = z
  .object({ name: z.string().min(1).max(200), kind: targetKindSchema, source: composeSourceSchema.optional() })
  .strict()
  .refine((t) => t.source === undefined || t.kind === "compose_git", { path: ["source"], message: "is only for kind compose_git" });

/**
 * The URL without its userinfo (`https://user:token@host/…` → `https://host/…`), so a token an agent
 * clones with is never stored or shown. scp-like `git@host:path` names a user, never a secret: kept.
 */
export function withoutUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1");
}

export const agentReportSchema = z
  .object({
    environment: z.string().min(1).max(100),
    target: reportTargetSchema,
    observed_at: z.iso.datetime({ offset: true }),
    workloads: z.array(workloadSchema).max(5000),
    registry_results: z.array(registryResultSchema).max(5000).default([]),
  })
  .strict();

export type Workload = z.infer<typeof workloadSchema>;
export type Chart = z.infer<typeof chartSchema>;
export type RegistryResult = z.infer<typeof registryResultSchema>;
export type TargetKind = z.infer<typeof targetKindSchema>;
export type ComposeSource = z.infer<typeof composeSourceSchema>;
export type AgentReport = z.infer<typeof agentReportSchema>;
/** The body as sent, before defaults are applied. */
export type AgentReportInput = z.input<typeof agentReportSchema>;
