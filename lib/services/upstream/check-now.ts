// "Check now" on the service page: check the service's repository in this
// process and answer with what the check found (the tags that appeared, the
// newest release, or why it failed) instead of asking for a reload. The API's
// POST …/check answers 202 at once; `driftwatch check --wait` polls it.
import { loadUpstream } from "@/lib/db/queries/upstream/list-upstream-facts";
import type { UpstreamState } from "@/lib/domain/upstream";
import { compareTags } from "@/lib/domain/versions";
import { workspaceOf, type RequestCtx } from "../context";
import { evaluateWorkspaceDrift } from "../drift/evaluate-workspace";
import { getServiceDetail } from "../services/get-detail";
import { checkRepository } from "./check-repository";
import type { UpstreamClients } from "./ports";
import { requestCheck } from "./request-check";

export type CheckNowResult = {
  service: string;
  repository: string;
  /** checked: the check ran and succeeded; failed: it ran and failed; queued: an agent checks it; running: another process still is. */
  outcome: "checked" | "failed" | "queued" | "running";
  /** Tags the check found that were not stored before, newest first where they compare (at most twenty). */
  new_tags: string[];
  newest: string | null;
  previous_newest: string | null;
  state: UpstreamState;
  error: string | null;
  checked_at: string | null;
};

/** How long to wait for a check another process holds the lease of. */
const OTHER_CHECK_WAIT_MS = 15_000;
const NEW_TAGS_SHOWN = 20;

async function upstreamOf(ctx: RequestCtx, name: string) {
  const detail = await getServiceDetail({ ctx: { ...ctx, now: new Date() }, input: { name } });
  const u = detail.row?.upstream;
  return { newest: u?.newest ?? null, state: (u?.state ?? "unchecked") as UpstreamState, error: u?.error ?? null, checked_at: u?.checked_at ?? null };
}

export async function checkServiceNow({ ctx, input, clients }: { ctx: RequestCtx; input: { name: string }; clients: UpstreamClients }): Promise<CheckNowResult> {
  const workspaceId = workspaceOf(ctx.actor);
  const before = await upstreamOf(ctx, input.name);
  const request = await requestCheck({ ctx, name: input.name });
  const base = { service: request.service, repository: request.repository, previous_newest: before.newest };
  if (request.checked_by === "agent") return { ...base, ...before, outcome: "queued", new_tags: [] };

  const tagsBefore = new Set((await loadUpstream(ctx.db, workspaceId, [request.repository])).get(request.repository)?.tags ?? []);
  let outcome: CheckNowResult["outcome"];
  if (request.leased) {
    const result = await checkRepository({ db: ctx.db, config: ctx.config, clients, now: ctx.now }, request.repository_id);
    // A registry that turns out to need credentials hands the repository to the agents.
    outcome = result.status === "failed" ? "failed" : result.status === "private" ? "queued" : "checked";
  } else {
    outcome = await awaitOtherCheck(ctx, workspaceId, request.repository, before);
  }
  // What the check learned moves drift; the page read after this shows it.
  await evaluateWorkspaceDrift({ ctx: { db: ctx.db, config: ctx.config, now: new Date() }, input: { workspaceId } });
  const after = await upstreamOf(ctx, input.name);
  const tagsAfter = (await loadUpstream(ctx.db, workspaceId, [request.repository])).get(request.repository)?.tags ?? [];
  const fresh = tagsAfter.filter((t) => !tagsBefore.has(t));
  fresh.sort((a, b) => (compareTags(b, a) ?? a.localeCompare(b)));
  return { ...base, ...after, outcome, new_tags: fresh.slice(0, NEW_TAGS_SHOWN) };
}

/** Another process holds the lease: wait until its check moves the last check's time or error. */
async function awaitOtherCheck(ctx: RequestCtx, workspaceId: string, key: string, before: { checked_at: string | null; error: string | null }): Promise<CheckNowResult["outcome"]> {
  const deadline = Date.now() + OTHER_CHECK_WAIT_MS;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const facts = (await loadUpstream(ctx.db, workspaceId, [key])).get(key);
    if (!facts) break;
    const checkedAt = facts.checkedAt?.toISOString() ?? null;
    if (checkedAt !== null && checkedAt !== before.checked_at) return "checked";
    if (facts.lastError !== null && facts.lastError !== before.error) return "failed";
  }
  return "running";
}
