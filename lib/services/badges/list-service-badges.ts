// Every badge of one service, as its page shows them.
import { listServiceLiveDrifts } from "@/lib/db/queries/drifts/list-service-live-drifts";
import { AppError } from "@/lib/domain/errors";
import { workspaceOf, type RequestCtx } from "../context";
import { getMatrix } from "../matrix/get";
import { badgeViews, type BadgeView } from "./views";

/** Every badge of one service, as its page shows them. */
export async function getServiceBadges({ ctx, input: { name } }: { ctx: RequestCtx; input: { name: string } }): Promise<BadgeView[]> {
  const workspaceId = workspaceOf(ctx.actor);
  const matrix = await getMatrix({ ctx, input: { q: name } });
  const row = matrix.services.find((s) => s.name === name);
  if (!row) throw new AppError("not_found", `Service ${name} was not found.`);
  const drifts = await listServiceLiveDrifts(ctx.db, workspaceId, name);
  const live = drifts.flatMap((d) => (d.state === "resolved" ? [] : [{ environment: d.environment.name, kind: d.kind, state: d.state }]));
  return badgeViews(row, live, matrix.environments, ctx.now);
}
