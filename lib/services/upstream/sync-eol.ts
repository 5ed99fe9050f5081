// End-of-life data for the products in use, from endoflife.date: each
// product cached for a day (ETag, renames followed), the purl list weekly.
// With end-of-life lookups off, nothing is requested at all.
import type { Prisma } from "@/lib/db/client";
import { claimCacheLease, endCacheLease } from "@/lib/db/queries/cache-entries/claim-cache-lease";
import { getCacheEntry } from "@/lib/db/queries/cache-entries/get-cache-entry";
import { putCacheEntry } from "@/lib/db/queries/cache-entries/put-cache-entry";
import { touchCacheEntry } from "@/lib/db/queries/cache-entries/touch-cache-entry";
import { getEolProduct } from "@/lib/db/queries/eol/get-eol-product";
import { putEolProduct } from "@/lib/db/queries/eol/put-eol-product";
import { touchEolProduct } from "@/lib/db/queries/eol/touch-eol-product";
import { loadServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { listWorkspaceIds } from "@/lib/db/queries/workspaces/list-workspace-ids";
import { eolProductOf, indexPurls, loadPurls, PURLS_CACHE_KEY } from "../eol/status";
import type { CheckDeps } from "./check-repository";

const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** Longer than one sync takes; a worker that dies holding it delays the next sync by at most this. */
const LEASE_MS = 5 * 60_000;
const LEASE_KEY = "lease:eol-sync";

/**
 * Every scheduler ticks at the same minute: one of them syncs, the others skip
 * (the data is fresh by their next tick), so each product is fetched once.
 * The lease is a `cache_entries` row whose `fetched_at` is when it runs out.
 */
async function claimSync(deps: CheckDeps, now: Date): Promise<Date | null> {
  const until = new Date(now.getTime() + LEASE_MS);
  // As for check leases: one ending further ahead than a lease reaches was taken by a clock since set back.
  const fromSetBackClock = new Date(now.getTime() + 2 * LEASE_MS);
  return (await claimCacheLease(deps.db, LEASE_KEY, { now, until, fromSetBackClock })) ? until : null;
}

export async function syncEol(deps: CheckDeps, opts: { force?: boolean } = {}): Promise<{ requests: number }> {
  if (!deps.config.eolEnabled) return { requests: 0 };
  const now = deps.now;
  const lease = await claimSync(deps, now);
  if (lease === null) return { requests: 0 };
  try {
    return await syncEolClaimed(deps, now, opts);
  } finally {
    await endCacheLease(deps.db, LEASE_KEY, lease, now).catch(() => 0);
  }
}

async function syncEolClaimed(deps: CheckDeps, now: Date, opts: { force?: boolean }): Promise<{ requests: number }> {
  let requests = 0;

  const purlsEntry = await getCacheEntry(deps.db, PURLS_CACHE_KEY);
  if (opts.force || !purlsEntry || now.getTime() - purlsEntry.fetchedAt.getTime() > WEEK) {
    try {
      requests++;
      const res = await deps.clients.eol.listPurlIdentifiers({ etag: purlsEntry?.etag });
      if (res.status === "ok") {
        const value = res.data as unknown as Prisma.InputJsonValue;
        await putCacheEntry(deps.db, { key: PURLS_CACHE_KEY, value, etag: res.etag, fetchedAt: now });
      } else if (res.status === "not_modified" && purlsEntry) {
        await touchCacheEntry(deps.db, PURLS_CACHE_KEY, now);
      }
    } catch {
      /* retried on a later tick */
    }
  }

  const byImage = indexPurls(await loadPurls(deps));
  const products = new Set<string>();
  for (const workspaceId of await listWorkspaceIds(deps.db)) {
    for (const facts of await loadServiceFacts(deps.db, workspaceId)) {
      const product = eolProductOf(facts, byImage);
      if (product) products.add(product);
    }
  }
  for (const name of products) {
    const cached = await getEolProduct(deps.db, name);
    if (!opts.force && cached && now.getTime() - cached.fetchedAt.getTime() < DAY) continue;
    try {
      requests++;
      const res = await deps.clients.eol.getProduct(name, { etag: cached?.etag });
      if (res.status === "ok") {
        const data = { releases: res.data.releases } as unknown as Prisma.InputJsonValue;
        await putEolProduct(deps.db, { name, data, etag: res.etag, fetchedAt: now, movedTo: res.movedTo });
        if (res.movedTo && res.movedTo !== name) {
          await putEolProduct(deps.db, { name: res.movedTo, data, etag: res.etag, fetchedAt: now });
        }
      } else if (res.status === "not_modified" && cached) {
        await touchEolProduct(deps.db, name, now, res.movedTo ?? cached.movedTo);
      }
    } catch {
      /* a product that fails is tried again on a later tick */
    }
  }
  return { requests };
}
