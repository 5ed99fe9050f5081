// A new agent key: it can only report observations for its workspace.
import { createAgentKey as insertAgentKey } from "@/lib/db/queries/agent-keys/create-agent-key";
import { deleteAgentKey } from "@/lib/db/queries/agent-keys/delete-agent-key";
import { getAgentKey } from "@/lib/db/queries/agent-keys/get-agent-key";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { AGENT_KEY_PREFIX, generateSecret } from "@/lib/auth/secrets";
import { sqlTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { createAgentKeySchema } from "./schemas";

const WRITE_TIMEOUT_MS = 10_000;

export type CreatedAgentKey = { id: string; name: string; prefix: string; value: string; created_at: string };

export async function createAgentKey({ ctx, input }: { ctx: RequestCtx; input: unknown }): Promise<CreatedAgentKey> {
  requireRole(ctx.actor, "admin");
  const parsed = createAgentKeySchema.safeParse(input);
  if (!parsed.success) throw new AppError("invalid_input", parsed.error.issues[0]!.message);
  const workspaceId = workspaceOf(ctx.actor);
  const secret = generateSecret(AGENT_KEY_PREFIX);
  // Plain SQL on the pool: the CLI's `agent create` then never starts Prisma's query engine.
  const key = await sqlTransaction(ctx.db, async (tx) => {
    const existing = await getAgentKey(tx, workspaceId, parsed.data.name);
    if (existing && !existing.revokedAt) throw new AppError("conflict", `An agent key named ${parsed.data.name} already exists; revoke it first or choose another name.`);
    if (existing) await deleteAgentKey(tx, existing.id);
    const k = await insertAgentKey(tx, { workspaceId, name: parsed.data.name, prefix: secret.prefix, hash: secret.hash, createdAt: ctx.now });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "agent_key.created", subject: k.id, data: { name: k.name } });
    return k;
  }, { timeoutMs: WRITE_TIMEOUT_MS });
  return { id: key.id, name: key.name, prefix: key.prefix, value: secret.value, created_at: key.createdAt.toISOString() };
}
