// A Compose-in-Git target: the server reads its Compose files from a branch.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { createEnvironmentLast } from "@/lib/db/queries/environments/create-environment-last";
import { getEnvironment } from "@/lib/db/queries/environments/get-environment";
import { createComposeTarget as insertComposeTarget } from "@/lib/db/queries/targets/create-compose-target";
import { getTarget } from "@/lib/db/queries/targets/get-target";
import type { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { checkDestination, systemResolve, type Resolve } from "@/lib/net/destination";
import { actorLabel, hasRole, requireRole, workspaceOf, type RequestCtx } from "../context";
import type { createComposeTargetSchema } from "./schemas";
import { toTargetOut, type TargetOut } from "./to-out";

/** Repository URLs git may read: remote https/ssh/git URLs, or local paths and file:// (self-hosted setups and tests). */
function checkRepositoryUrl(url: string): void {
  if (/^-/.test(url) || /\s/.test(url)) throw new AppError("invalid_input", "repository_url is not a valid repository address.", { errors: [{ pointer: "/repository_url", detail: "must be an https://, ssh://, git@host:path, file:// URL or an absolute path" }] });
  if (/^(https?|ssh|git|file):\/\//.test(url) || /^[\w.-]+@[\w.-]+:[\w./-]+$/.test(url) || url.startsWith("/")) return;
  throw new AppError("invalid_input", "repository_url is not a valid repository address.", { errors: [{ pointer: "/repository_url", detail: "must be an https://, ssh://, git@host:path, file:// URL or an absolute path" }] });
}

/** The network host a repository URL names (`https://h/…`, `ssh://u@h:22/…`, `git@h:path`), or null for a local one. */
function repositoryHost(url: string): string | null {
  const scp = /^[\w.-]+@([\w.-]+):/.exec(url);
  if (scp && !url.includes("://")) return scp[1]!;
  const m = /^(?:https?|ssh|git):\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(url);
  return m ? m[1]! : null;
}

/**
 * Like webhooks (lib/net): a repository on a loopback, private, link-local or
 * metadata address, by literal IP in any spelling or by a name resolving to
 * one, is refused unless an admin adds it. A name that does not resolve now is
 * accepted (the refresh reports it).
 */
async function checkRepositoryHost(ctx: RequestCtx, url: string, resolve: Resolve): Promise<void> {
  const host = repositoryHost(url);
  if (host === null) return;
  try {
    await checkDestination(`http://${host}/`, { allowPrivate: hasRole(ctx.actor, "admin"), resolve, pointer: "/repository_url" });
  } catch (err) {
    if (err instanceof AppError && err.code === "unavailable") return;
    throw err;
  }
}

export async function createComposeTarget({ ctx, input, resolve = systemResolve }: { ctx: RequestCtx; input: z.infer<typeof createComposeTargetSchema>; resolve?: Resolve }): Promise<TargetOut> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  checkRepositoryUrl(input.repository_url);
  await checkRepositoryHost(ctx, input.repository_url, resolve);
  const name = input.name ?? `compose@${input.environment}`;
  const created = await ctx.db.$transaction(async (tx) => {
    const env = (await getEnvironment(tx, workspaceId, input.environment)) ?? (await createEnvironmentLast(tx, workspaceId, input.environment));
    const exists = await getTarget(tx, workspaceId, name);
    if (exists) throw new AppError("conflict", `Target ${name} already exists.`);
    const config = { repository_url: input.repository_url, branch: input.branch, paths: input.paths };
    const t = await insertComposeTarget(tx, { workspaceId, environmentId: env.id, name, config, refreshDueAt: ctx.now });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "target.created", subject: name, data: config });
    return t;
  });
  return toTargetOut(created, 0);
}
