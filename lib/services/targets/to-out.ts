// A target as the API shows it.
import type { z } from "zod";
import type { targetSchema } from "./schemas";

export type TargetOut = z.infer<typeof targetSchema>;

type ComposeSource = { repository_url?: string; branch?: string; paths?: string[] };
/** Server-read targets keep their source at the top; an agent's report keeps where it read its files under agent_source. */
type ComposeConfig = ComposeSource & { agent_source?: ComposeSource };

export function toTargetOut(t: {
  name: string; kind: TargetOut["kind"]; config: unknown; lastReportAt: Date | null; lastObservedAt: Date | null; lastCommit: string | null; lastError: string | null;
  environment: { name: string };
}, workloads: number): TargetOut {
  const config = (t.config ?? {}) as ComposeConfig;
  const readBy = t.kind !== "compose_git" ? null : config.repository_url ? "server" : "agent";
  const c = readBy === "agent" ? (config.agent_source ?? {}) : config;
  return {
    name: t.name, kind: t.kind, environment: t.environment.name,
    repository_url: c.repository_url ?? null, branch: c.branch ?? null, paths: c.paths ?? [], read_by: readBy,
    last_report_at: t.lastReportAt?.toISOString() ?? null, last_observed_at: t.lastObservedAt?.toISOString() ?? null,
    last_commit: t.lastCommit, last_error: t.lastError, workloads,
  };
}
