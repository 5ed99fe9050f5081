// A target as the API shows it.
import type { z } from "zod";
import type { targetSchema } from "./schemas";

export type TargetOut = z.infer<typeof targetSchema>;

type ComposeConfig = { repository_url?: string; branch?: string; paths?: string[] };

export function toTargetOut(t: {
  name: string; kind: TargetOut["kind"]; config: unknown; lastReportAt: Date | null; lastObservedAt: Date | null; lastCommit: string | null; lastError: string | null;
  environment: { name: string };
}, workloads: number): TargetOut {
  const c = (t.config ?? {}) as ComposeConfig;
  return {
    name: t.name, kind: t.kind, environment: t.environment.name,
    repository_url: c.repository_url ?? null, branch: c.branch ?? null, paths: c.paths ?? [],
    last_report_at: t.lastReportAt?.toISOString() ?? null, last_observed_at: t.lastObservedAt?.toISOString() ?? null,
    last_commit: t.lastCommit, last_error: t.lastError, workloads,
  };
}
