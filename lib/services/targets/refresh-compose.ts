// Compose-in-Git targets the server reads itself: every few minutes, fetch
// the branch, read the Compose files, and record what they declare as that
// target's state (declared rows). Several workers split the due targets with
// FOR UPDATE SKIP LOCKED; a failure keeps the last state and shows its error.
import path from "node:path";
import { readComposeFromGit } from "@/lib/adapters/compose-git/read-compose-from-git";
import { leaseDueComposeTargets } from "@/lib/db/queries/targets/lease-due-compose-targets";
import { recordComposeRefresh } from "@/lib/db/queries/targets/record-compose-refresh";
import type { AgentReport } from "@/lib/domain/agent-report";
import type { TickCtx } from "../context";
import { splitImage } from "@/lib/domain/intake/report";
import { applyTargetReport } from "../agent-reports/record";
import { ensureUpstreamRepositories } from "../upstream/ensure-repositories";

export const COMPOSE_REFRESH_MS = 5 * 60_000;

export type ComposeRefreshOutcome = { target: string; ok: boolean; commit?: string; changed?: boolean; error?: string };

export async function refreshComposeTargets({ ctx: deps, input: opts = {} }: { ctx: TickCtx; input?: { limit?: number; targetIds?: string[] } }): Promise<ComposeRefreshOutcome[]> {
  const now = deps.now;
  const lease = new Date(now.getTime() + COMPOSE_REFRESH_MS);
  const forced = opts.targetIds ?? null;
  const due = await leaseDueComposeTargets(deps.db, now, lease, opts.limit ?? 20, forced);

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
      await recordComposeRefresh(deps.db, t.id, { lastCommit: compose.commit, lastError: problems });
      outcomes.push({ target: t.name, ok: true, commit: compose.commit, changed: outcome.changed });
    } catch (err) {
      const error = (err as Error).message.slice(0, 1000);
      await recordComposeRefresh(deps.db, t.id, { lastError: error });
      outcomes.push({ target: t.name, ok: false, error });
    }
  }
  return outcomes;
}
