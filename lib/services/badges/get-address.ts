// A badge's signed address.
import { getEnvironmentId } from "@/lib/db/queries/environments/get-environment-id";
import { getServiceId } from "@/lib/db/queries/services/get-service-id";
import { AppError } from "@/lib/domain/errors";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { address, ensureBadgeKey, type BadgeAddress } from "./keys";

/** The address of one badge (one environment, or all with `environment` null). Members and higher. */
export async function getBadgeAddress({ ctx, input: { name, environment } }: { ctx: RequestCtx; input: { name: string; environment: string | null } }): Promise<BadgeAddress> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  if (!(await getServiceId(ctx.db, workspaceId, name))) throw new AppError("not_found", `Service ${name} was not found.`);
  if (environment) {
    if (!(await getEnvironmentId(ctx.db, workspaceId, environment))) throw new AppError("not_found", `Environment ${environment} was not found.`, { errors: [{ pointer: "/query/env", detail: "no such environment" }] });
  }
  const key = await ensureBadgeKey(ctx.db, workspaceId);
  return address(ctx.config.baseUrl, key, workspaceId, name, environment);
}
