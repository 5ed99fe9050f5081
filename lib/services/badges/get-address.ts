// A badge's signed address.
import { AppError } from "@/lib/domain/errors";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { address, ensureBadgeKey, type BadgeAddress } from "./keys";

/** The address of one badge (one environment, or all with `environment` null). Members and higher. */
export async function getBadgeAddress({ ctx, input: { name, environment } }: { ctx: RequestCtx; input: { name: string; environment: string | null } }): Promise<BadgeAddress> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const service = await ctx.db.service.findUnique({ where: { workspaceId_name: { workspaceId, name } }, select: { id: true } });
  if (!service) throw new AppError("not_found", `Service ${name} was not found.`);
  if (environment) {
    const env = await ctx.db.environment.findUnique({ where: { workspaceId_name: { workspaceId, name: environment } }, select: { id: true } });
    if (!env) throw new AppError("not_found", `Environment ${environment} was not found.`, { errors: [{ pointer: "/query/env", detail: "no such environment" }] });
  }
  const key = await ensureBadgeKey(ctx.db, workspaceId);
  return address(ctx.config.baseUrl, key, workspaceId, name, environment);
}
