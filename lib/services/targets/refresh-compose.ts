// Compose-in-Git targets the server reads itself: every few minutes, fetch
// the branch, read the Compose files, and record what they declare as that
// target's state (declared rows). Several workers split the due targets with
// FOR UPDATE SKIP LOCKED; a failure keeps the last state and shows its error.
import path from "node:path";
import { readComposeFromGit } from "@/lib/adapters/compose-git/read-compose-from-git";
import type { AgentReport } from "@/lib/domain/agent-report";
import type { TickCtx } from "../context";
import { splitImage } from "@/lib/domain/intake/report";
import { applyTargetReport } from "../agent-reports/record";
import { ensureUpstreamRepositories } from "../upstream/ensure-repositories";

export const COMPOSE_REFRESH_MS = 5 * 60_000;

type ComposeConfig = { repository_url: string; branch: string; paths: string[] };

export type ComposeRefreshOutcome = { target: string; ok: boolean; commit?: string; changed?: boolean; error?: string };

export async function refreshComposeTargets({ ctx: deps, input: opts = {} }: { ctx: TickCtx; input?: { limit?: number; targetIds?: string[] } }): Promise<ComposeRefreshOutcome[]> {
  const now = deps.now;
  const lease = new Date(now.getTime() + COMPOSE_REFRESH_MS);
  const forced = opts.targetIds ?? null;
  const due = await deps.db.$queryRaw<{ id: string; workspace_id: string; name: string; config: ComposeConfig; environment: string }[]>`
    UPDATE targets t SET refresh_due_at = ${lease}
    FROM environments e
    WHERE t.id IN (
      SELECT id FROM targets
      WHERE kind = 'compose_git' AND config ? 'repository_url'
        AND (${forced}::uuid[] IS NOT NULL AND id = ANY(${forced}::uuid[]) OR ${forced}::uuid[] IS NULL AND (refresh_due_at IS NULL OR refresh_due_at <= ${now}))
      ORDER BY refresh_due_at NULLS FIRST
      LIMIT ${opts.limit ?? 20}
      FOR UPDATE SKIP LOCKED)
      AND e.id = t.environment_id
    RETURNING t.id::text, t.workspace_id::text, t.name, t.config, e.name AS environment`;

  const outcomes: ComposeRefreshOutcome[] = [];
  for (const t of due) {
    try {
      const compose = await readComposeFromGit(
        { url: t.config.repository_url, branch: t.config.branch, paths: t.config.paths },
        { cacheDir: path.join(deps.config.dataDir, "git") },
      );
      // Declared versions start when the commit declaring them was made.
      const since = compose.committedAt.toISOString();
      const report: AgentReport = {
        environment: t.environment,
        target: { name: t.name, kind: "compose_git" },
        observed_at: now.toISOString(),
        workloads: compose.services.map((s) => ({ service: s.service, container: s.service, main: true, image: s.image, digest: null, platform_digest: null, platform: null, since })),
        registry_results: [],
      };
      const outcome = await applyTargetReport(deps, t.workspace_id, report, null);
      await ensureUpstreamRepositories(deps.db, t.workspace_id, report.workloads.map((w) => splitImage(w.image).repository), deps.config.serverRegistries, now);
      const problems = compose.errors.length ? compose.errors.join("; ").slice(0, 1000) : null;
      await deps.db.target.update({ where: { id: t.id }, data: { lastCommit: compose.commit, lastError: problems } });
      outcomes.push({ target: t.name, ok: true, commit: compose.commit, changed: outcome.changed });
    } catch (err) {
      const error = (err as Error).message.slice(0, 1000);
      await deps.db.target.update({ where: { id: t.id }, data: { lastError: error } });
      outcomes.push({ target: t.name, ok: false, error });
    }
  }
  return outcomes;
}
