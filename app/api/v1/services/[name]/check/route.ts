import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { getUpstreamClients } from "@/lib/server/upstream-clients";
import { workspaceOf } from "@/lib/services/context";
import { evaluateWorkspaceDrift } from "@/lib/services/drift/evaluate-workspace";
import { checkRepository } from "@/lib/services/upstream/check-repository";
import { requestCheck } from "@/lib/services/upstream/request-check";
import { log } from "@/lib/log";

export const POST = handle(ops.checkService, async ({ ctx, params }) => {
  const request = await requestCheck({ ctx, name: params.name });
  if (request.leased) {
    // Not awaited: the caller gets 202 at once, the check runs now in this (long-running) process.
    void checkRepository({ db: ctx.db, config: ctx.config, clients: getUpstreamClients(ctx.config), now: ctx.now }, request.repository_id)
      .catch((err: unknown) => log.warn(`manual check of ${request.repository} failed: ${String(err)}`))
      // Drift follows what the check learned.
      .then(() => evaluateWorkspaceDrift({ ctx: { db: ctx.db, config: ctx.config, now: ctx.now }, input: { workspaceId: workspaceOf(ctx.actor) } }))
      .catch((err: unknown) => log.warn(`drift evaluation after a check failed: ${String(err)}`));
  }
  return reply(202, { service: request.service, repository: request.repository, checked_by: request.checked_by });
});
