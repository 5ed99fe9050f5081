// A service's policy names another chart repository (or none): the Helm release rows it runs now
// are checked against it from now on, without waiting for the next revision.
import type { Db } from "@/lib/db/client";
import { listOpenChartRuns, rekeyChartRuns } from "@/lib/db/queries/runs/rekey-chart-runs";
import { chartKeyFor } from "./chart-repositories";
import { ensureUpstreamRepositories } from "./ensure-repositories";

export async function followChartRepository({ ctx, input }: {
  ctx: { db: Db; now: Date; config: { serverRegistries: string[] } };
  input: { workspaceId: string; serviceId: string; chartRepository: string | null };
}): Promise<void> {
  const rows = await listOpenChartRuns(ctx.db, input.workspaceId, input.serviceId);
  const changed = rows.flatMap((r) => {
    // The stored image is `<chart>:<version>`; chart names hold no colon.
    const name = r.image.slice(0, r.image.indexOf(":"));
    const repository = chartKeyFor({ name, repository: null, home: null }, input.chartRepository, ctx.config.serverRegistries);
    return repository === r.repository ? [] : [{ id: r.id, repository }];
  });
  if (changed.length === 0) return;
  await rekeyChartRuns(ctx.db, changed);
  await ensureUpstreamRepositories(ctx.db, input.workspaceId, changed.map((r) => r.repository), ctx.config.serverRegistries, ctx.now);
}
