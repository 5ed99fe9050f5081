// Moving tags whose exact version waits for a registry's pull quota: the
// running digest could not be looked up for want of a pull, and is looked up
// by itself when the host's window refills. For the API and the service page.
import { getQuotaWaitOf } from "@/lib/db/queries/upstream/get-quota-wait";
import { requireRole, type RequestCtx } from "../context";
import { rationedHost } from "./pull-budget";

export type QuotaWaitOut = {
  /** The rationed registry's name ("Docker Hub"). */
  registry: string;
  host: string;
  /** Running digests not looked up yet. */
  digests: number;
  /** When the next lookup is tried (the window refills then); in the past: at the next check. */
  until: string;
};

export async function getQuotaWait({ ctx, repository }: { ctx: RequestCtx; repository: string }): Promise<QuotaWaitOut | null> {
  requireRole(ctx.actor, "viewer");
  const wait = await getQuotaWaitOf(ctx.db, repository);
  if (!wait) return null;
  return { registry: rationedHost(ctx.config, wait.host)?.profile.name ?? wait.host, host: wait.host, digests: wait.digests, until: wait.until.toISOString() };
}
