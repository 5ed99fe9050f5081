// The two contexts a use case runs in: a request's (someone acting in a
// workspace) and a scheduled tick's (the server itself). `now` is the
// instant the request or tick began; services authorise against `actor`.
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/domain/errors";

export type Role = "owner" | "admin" | "member" | "viewer";
const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

export type Actor =
  | { kind: "user"; userId: string; email: string; workspaceId: string; role: Role }
  | { kind: "token"; tokenId: string; workspaceId: string; role: Role }
  | { kind: "agent"; agentKeyId: string; workspaceId: string; name: string }
  | { kind: "system"; workspaceId: string | null };

/**
 * `snapshot`: the database's transaction snapshot (`pg_current_snapshot()`)
 * read when the request was authenticated, before it read anything else;
 * insight caches compare with it instead of asking again. Absent (or null)
 * means "ask".
 */
export type RequestCtx = { db: Db; now: Date; config: Config; actor: Actor; snapshot?: string | null };

/** A scheduled tick: the scheduler, the CLI's jobs and the bench run use cases as the system. */
export type TickCtx = { db: Db; now: Date; config: Config };

/** A tick acting in one workspace, for use cases written for requests. */
export function systemCtx(ctx: TickCtx, workspaceId: string): RequestCtx {
  return { db: ctx.db, now: ctx.now, config: ctx.config, actor: { kind: "system", workspaceId } };
}

export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case "user": return `user:${actor.email}`;
    case "token": return `token:${actor.tokenId}`;
    case "agent": return `agent:${actor.name}`;
    case "system": return "system";
  }
}

/** The acting workspace, for any actor that has one. */
export function workspaceOf(actor: Actor): string {
  if (!actor.workspaceId) throw new AppError("forbidden", "This action needs a workspace.");
  return actor.workspaceId;
}

export function hasRole(actor: Actor, needed: Role): boolean {
  if (actor.kind === "system") return true;
  if (actor.kind === "agent") return false;
  return RANK[actor.role] >= RANK[needed];
}

export function requireRole(actor: Actor, needed: Role): void {
  if (!hasRole(actor, needed)) {
    throw new AppError("forbidden", `This action needs the ${needed} role or higher.`);
  }
}

/** Who may record an agent report: an agent key, or the server itself in a workspace (its own Docker host). */
export function requireReporter(actor: Actor): { workspaceId: string; agentKeyId: string | null } {
  if (actor.kind === "agent") return { workspaceId: actor.workspaceId, agentKeyId: actor.agentKeyId };
  if (actor.kind === "system" && actor.workspaceId) return { workspaceId: actor.workspaceId, agentKeyId: null };
  throw new AppError("forbidden", "Only agent keys can report observations.");
}
