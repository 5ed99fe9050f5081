// A new acknowledgement. Rules:
//   - `release` needs `until_version`, `skip_version` or `duration` (whichever comes first ends it);
//   - `drift` needs `duration` and refuses `until_version` (it is not tied to a release);
//   - `until_version` must name a version (1.28, 1.28.0, v2.3.1-alpine);
//   - an unknown service or environment is 404.
// An acknowledgement ends by itself: at `expires_at`, or when drift evaluation
// sees a version at or above `until_version` run in its scope (`lifted_at`).
import type { z } from "zod";
import { createAck as createAckRow } from "@/lib/db/queries/acks/create-ack";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { getEnvironmentId } from "@/lib/db/queries/environments/get-environment-id";
import { getServiceId } from "@/lib/db/queries/services/get-service-id";
import { parseDuration } from "@/lib/domain/duration";
import { AppError, invalid } from "@/lib/domain/errors";
import { isVersionTag } from "@/lib/domain/versions";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import type { createAckSchema } from "./schemas";
import { withActiveState, type AckOut } from "./with-active-state";

type CreateAckInput = z.infer<typeof createAckSchema>;

/** The creation rules above; throws 422 with the field's pointer. */
export function checkAckInput(input: CreateAckInput): void {
  if (input.kind === "drift") {
    if (input.until_version !== undefined) throw invalid("/until_version", "until_version is only for kind release; a drift acknowledgement lasts for a duration.");
    if (input.skip_version !== undefined) throw invalid("/skip_version", "skip_version is only for kind release; a drift acknowledgement lasts for a duration.");
    if (input.duration === undefined) throw invalid("/duration", "A drift acknowledgement needs a duration, such as 72h or 7d.");
  } else if (input.until_version === undefined && input.skip_version === undefined && input.duration === undefined) {
    throw invalid("/until_version", "A release acknowledgement needs until_version, skip_version or a duration.");
  }
  if (input.until_version !== undefined && input.skip_version !== undefined) {
    throw invalid("/skip_version", "Give until_version or skip_version, not both.");
  }
  for (const field of ["until_version", "skip_version"] as const) {
    const v = input[field];
    if (v !== undefined && !isVersionTag(v)) throw invalid(`/${field}`, `${v} is not a version (such as 1.28 or 1.28.0).`);
  }
}

export async function createAck({ ctx, input }: { ctx: RequestCtx; input: CreateAckInput }): Promise<AckOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  checkAckInput(input);
  const now = ctx.now;
  const durationMs = input.duration === undefined ? null : parseDuration(input.duration);

  const serviceId = await getServiceId(ctx.db, workspaceId, input.service);
  if (!serviceId) throw new AppError("not_found", `Service ${input.service} was not found.`);
  let environmentId: string | null = null;
  if (input.environment !== undefined) {
    environmentId = await getEnvironmentId(ctx.db, workspaceId, input.environment);
    if (!environmentId) throw new AppError("not_found", `Environment ${input.environment} was not found.`);
  }

  const row = await ctx.db.$transaction(async (tx) => {
    const created = await createAckRow(tx, {
      workspaceId,
      serviceId,
      environmentId,
      kind: input.kind,
      untilVersion: input.until_version ?? null,
      skipVersion: input.skip_version ?? null,
      expiresAt: durationMs === null ? null : new Date(now.getTime() + durationMs),
      createdBy: actorLabel(ctx.actor),
      createdAt: now,
    });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "ack.created", subject: input.service, data: { id: created.id, ...input } });
    return created;
  });
  const [out] = await withActiveState(ctx, workspaceId, [row]);
  return out!;
}
