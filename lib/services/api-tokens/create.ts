// A new API token; the value is returned once and only its hash is kept.
import { createApiToken as insertApiToken } from "@/lib/db/queries/api-tokens/create-api-token";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { generateSecret, TOKEN_PREFIX } from "@/lib/auth/secrets";
import { sqlTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { createTokenSchema } from "./schemas";

const WRITE_TIMEOUT_MS = 10_000;

export type CreatedToken = { id: string; name: string; role: "viewer" | "member"; prefix: string; value: string; created_at: string };

export async function createApiToken({ ctx, input }: { ctx: RequestCtx; input: unknown }): Promise<CreatedToken> {
  requireRole(ctx.actor, "admin");
  const parsed = createTokenSchema.safeParse(input);
  if (!parsed.success) throw new AppError("invalid_input", parsed.error.issues[0]!.message);
  const workspaceId = workspaceOf(ctx.actor);
  const secret = generateSecret(TOKEN_PREFIX);
  // Plain SQL on the pool: the CLI's `token create` then never starts Prisma's query engine.
  const token = await sqlTransaction(ctx.db, async (tx) => {
    const t = await insertApiToken(tx, { workspaceId, name: parsed.data.name, role: parsed.data.role, prefix: secret.prefix, hash: secret.hash, createdAt: ctx.now });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "token.created", subject: t.id, data: { name: t.name, role: t.role } });
    return t;
  }, { timeoutMs: WRITE_TIMEOUT_MS });
  return { id: token.id, name: token.name, role: token.role, prefix: token.prefix, value: secret.value, created_at: token.createdAt.toISOString() };
}
