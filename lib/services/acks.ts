// Acknowledgements. Rules for creating one:
//   - `release` needs `until_version`, `duration`, or both (whichever comes first ends it);
//   - `drift` needs `duration` and refuses `until_version` (it is not tied to a release);
//   - `until_version` must name a version (1.28, 1.28.0, v2.3.1-alpine);
//   - an unknown service or environment is 404.
// An acknowledgement ends by itself: at `expires_at`, or when drift evaluation
// sees a version at or above `until_version` run in its scope (`lifted_at`).
import type { z } from "zod";
import type { ackQuerySchema, ackSchema, createAckSchema } from "@/lib/api/schemas/drift";
import { isAckActive, listVersionsInAckScope } from "@/lib/domain/drift";
import { parseDuration } from "@/lib/domain/duration";
import { AppError, invalid } from "@/lib/domain/errors";
import { isVersionTag } from "@/lib/domain/versions";
import { actorLabel, requireRole, workspaceOf, type Ctx } from "./context";
import { loadRunningVersions } from "./drift/running-versions";

type AckOut = z.infer<typeof ackSchema>;
type CreateAckInput = z.infer<typeof createAckSchema>;

type AckRow = {
  id: string;
  serviceId: string;
  environmentId: string | null;
  kind: "release" | "drift";
  untilVersion: string | null;
  expiresAt: Date | null;
  liftedAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  service: { name: string };
  environment: { name: string } | null;
};

const include = { service: { select: { name: true } }, environment: { select: { name: true } } } as const;

function toOut(row: AckRow, active: boolean): AckOut {
  return {
    id: row.id,
    service: row.service.name,
    kind: row.kind,
    until_version: row.untilVersion,
    environment: row.environment?.name ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    lifted_at: row.liftedAt?.toISOString() ?? null,
    active,
    created_by: row.createdBy,
  };
}

/** The creation rules above; throws 422 with the field's pointer. */
export function checkAckInput(input: CreateAckInput): void {
  if (input.kind === "drift") {
    if (input.until_version !== undefined) throw invalid("/until_version", "until_version is only for kind release; a drift acknowledgement lasts for a duration.");
    if (input.duration === undefined) throw invalid("/duration", "A drift acknowledgement needs a duration, such as 72h or 7d.");
  } else if (input.until_version === undefined && input.duration === undefined) {
    throw invalid("/until_version", "A release acknowledgement needs until_version, a duration, or both.");
  }
  if (input.until_version !== undefined && !isVersionTag(input.until_version)) {
    throw invalid("/until_version", `${input.until_version} is not a version (such as 1.28 or 1.28.0).`);
  }
}

export async function createAck({ ctx, input }: { ctx: Ctx; input: CreateAckInput }): Promise<AckOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  checkAckInput(input);
  const now = ctx.now();
  const durationMs = input.duration === undefined ? null : parseDuration(input.duration);

  const service = await ctx.db.service.findUnique({ where: { workspaceId_name: { workspaceId, name: input.service } }, select: { id: true } });
  if (!service) throw new AppError("not_found", `Service ${input.service} was not found.`);
  let environmentId: string | null = null;
  if (input.environment !== undefined) {
    const env = await ctx.db.environment.findUnique({ where: { workspaceId_name: { workspaceId, name: input.environment } }, select: { id: true } });
    if (!env) throw new AppError("not_found", `Environment ${input.environment} was not found.`);
    environmentId = env.id;
  }

  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.ack.create({
      data: {
        workspaceId,
        serviceId: service.id,
        environmentId,
        kind: input.kind,
        untilVersion: input.until_version ?? null,
        expiresAt: durationMs === null ? null : new Date(now.getTime() + durationMs),
        createdBy: actorLabel(ctx.actor),
        createdAt: now,
      },
      include,
    });
    await tx.auditEntry.create({
      data: { workspaceId, actor: actorLabel(ctx.actor), action: "ack.created", subject: input.service, data: { id: created.id, ...input } },
    });
    return created;
  });
  const [out] = await withActiveState(ctx, workspaceId, [row]);
  return out!;
}

export async function listAcks({ ctx, query }: { ctx: Ctx; query: z.infer<typeof ackQuerySchema> }): Promise<{ items: AckOut[] }> {
  const workspaceId = workspaceOf(ctx.actor);
  const rows = await ctx.db.ack.findMany({
    where: { workspaceId, ...(query.service ? { service: { name: query.service } } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include,
  });
  const items = await withActiveState(ctx, workspaceId, rows);
  return { items: query.active === undefined ? items : items.filter((a) => a.active === query.active) };
}

export async function deleteAck({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const row = await ctx.db.ack.findFirst({ where: { id, workspaceId }, include });
  if (!row) throw new AppError("not_found", "Acknowledgement not found.");
  await ctx.db.$transaction([
    ctx.db.ack.delete({ where: { id: row.id } }),
    ctx.db.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "ack.deleted", subject: row.service.name, data: { id: row.id } } }),
  ]);
}

/** Active = not lifted, not expired, and no version at or above until_version runs in scope yet. */
async function withActiveState(ctx: Ctx, workspaceId: string, rows: AckRow[]): Promise<AckOut[]> {
  const now = ctx.now();
  const needVersions = rows.filter((r) => r.untilVersion !== null && r.liftedAt === null).map((r) => r.serviceId);
  const running = await loadRunningVersions(ctx.db, workspaceId, needVersions);
  return rows.map((r) => toOut(r, isAckActive(r, { now, runningVersionsInScope: listVersionsInAckScope(r, running) })));
}
