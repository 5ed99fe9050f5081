// The server's run of its own Docker host: every agent interval, the watches of the engine this
// process reads are leased (one process runs each), the engine is collected once with the agent's
// collector, and each watch's reports go through the same intake use case as the agent's POST.
import { collect, type CollectResult } from "@/lib/adapters/runtimes/collect";
import type { DockerEngineIdentity } from "@/lib/adapters/runtimes/docker/probe-engine";
import { leaseDueDockerHostWatches } from "@/lib/db/queries/docker-host/lease-due-docker-host-watches";
import { recordDockerHostRun } from "@/lib/db/queries/docker-host/record-docker-host-run";
import { recordAgentReport } from "../agent-reports/record";
import { agentReportBody } from "../agent-reports/schemas";
import { systemCtx, type TickCtx } from "../context";
import type { DockerHost } from "./ports";

/** The agent's default interval. */
export const DOCKER_HOST_INTERVAL_MS = 60_000;

export type DockerHostRunOutcome = { watch: string; workspace_id: string; reported: string[]; workloads: number; error: string | null };

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 1000);

export async function runDockerHostWatches({ ctx, input, host }: {
  ctx: TickCtx;
  /** The engine last seen at the host's endpoint: its watches are this process's to run. */
  input: { engine: DockerEngineIdentity; intervalMs?: number; limit?: number };
  host: Pick<DockerHost, "endpoint">;
}): Promise<DockerHostRunOutcome[]> {
  if (!host.endpoint) return [];
  const intervalMs = input.intervalMs ?? DOCKER_HOST_INTERVAL_MS;
  // Leased a little short of the interval, so the next tick of the process that ran it finds it due.
  const lease = new Date(ctx.now.getTime() + intervalMs - Math.min(intervalMs / 4, 5_000));
  const due = await leaseDueDockerHostWatches(ctx.db, input.engine.id, ctx.now, lease, input.limit ?? 50);
  if (due.length === 0) return [];

  // One collection serves every workspace watching this engine; each gets the reports in its environment.
  const endpoint = host.endpoint;
  let result: CollectResult | null = null;
  let failure: string | null = null;
  try {
    result = await collect({ environment: due[0]!.environment, docker: endpoint, swarm: input.engine.swarmManager ? endpoint : undefined });
  } catch (err) {
    failure = oneLine((err as Error).message);
  }

  const outcomes: DockerHostRunOutcome[] = [];
  for (const watch of due) {
    const problems = failure ? [failure] : (result?.failures ?? []).map((f) => `${f.source}: ${f.message}`);
    const reported: string[] = [];
    let workloads = 0;
    for (const report of result?.reports ?? []) {
      // The same validation as the API's body, then the same use case.
      const parsed = agentReportBody.safeParse({ ...report, environment: watch.environment });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        problems.push(`${report.target.name}: report is invalid at ${issue?.path.join(".")}: ${issue?.message}`);
        continue;
      }
      try {
        await recordAgentReport({ ctx: systemCtx(ctx, watch.workspace_id), input: parsed.data });
        reported.push(report.target.name);
        workloads += report.workloads.length;
      } catch (err) {
        problems.push(`${report.target.name}: ${(err as Error).message}`);
      }
    }
    const error = problems.length ? oneLine(problems.join("; ")) : null;
    await recordDockerHostRun(ctx.db, watch.id, { at: ctx.now, reportedAt: reported.length ? ctx.now : null, workloads: reported.length ? workloads : null, error });
    outcomes.push({ watch: watch.id, workspace_id: watch.workspace_id, reported, workloads, error });
  }
  return outcomes;
}
