// End-of-life data for the products in use, from endoflife.date: each
// product cached for a day (ETag, renames followed), the purl list weekly.
// With end-of-life lookups off, nothing is requested at all.
import type { Prisma } from "@/lib/db/client";
import { loadServiceFacts } from "@/lib/db/queries/services";
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
  const rows = await deps.db.$queryRaw<{ key: string }[]>`
    INSERT INTO cache_entries (key, value, fetched_at) VALUES (${LEASE_KEY}, '{}'::jsonb, ${until})
    ON CONFLICT (key) DO UPDATE SET fetched_at = EXCLUDED.fetched_at
      WHERE cache_entries.fetched_at <= ${now} OR cache_entries.fetched_at > ${fromSetBackClock}
    RETURNING key`;
  return rows.length === 1 ? until : null;
}

export async function syncEol(deps: CheckDeps, opts: { force?: boolean } = {}): Promise<{ requests: number }> {
  if (!deps.config.eolEnabled) return { requests: 0 };
  const now = deps.now;
  const lease = await claimSync(deps, now);
  if (lease === null) return { requests: 0 };
  try {
    return await syncEolClaimed(deps, now, opts);
  } finally {
    await deps.db.$executeRaw`UPDATE cache_entries SET fetched_at = ${now} WHERE key = ${LEASE_KEY} AND fetched_at = ${lease}`.catch(() => 0);
  }
}

async function syncEolClaimed(deps: CheckDeps, now: Date, opts: { force?: boolean }): Promise<{ requests: number }> {
  let requests = 0;

  const purlsEntry = await deps.db.cacheEntry.findUnique({ where: { key: PURLS_CACHE_KEY } });
  if (opts.force || !purlsEntry || now.getTime() - purlsEntry.fetchedAt.getTime() > WEEK) {
    try {
      requests++;
      const res = await deps.clients.eol.listPurlIdentifiers({ etag: purlsEntry?.etag });
      if (res.status === "ok") {
        const value = res.data as unknown as Prisma.InputJsonValue;
        await deps.db.cacheEntry.upsert({ where: { key: PURLS_CACHE_KEY }, create: { key: PURLS_CACHE_KEY, value, etag: res.etag, fetchedAt: now }, update: { value, etag: res.etag, fetchedAt: now } });
      } else if (res.status === "not_modified" && purlsEntry) {
        await deps.db.cacheEntry.update({ where: { key: PURLS_CACHE_KEY }, data: { fetchedAt: now } });
      }
    } catch {
      /* retried on a later tick */
    }
  }

  const byImage = indexPurls(await loadPurls(deps));
  const workspaces = await deps.db.workspace.findMany({ select: { id: true } });
  const products = new Set<string>();
  for (const ws of workspaces) {
    for (const facts of await loadServiceFacts(deps.db, ws.id)) {
      const product = eolProductOf(facts, byImage);
      if (product) products.add(product);
    }
  }
  for (const name of products) {
    const cached = await deps.db.eolProduct.findUnique({ where: { name } });
    if (!opts.force && cached && now.getTime() - cached.fetchedAt.getTime() < DAY) continue;
    try {
      requests++;
      const res = await deps.clients.eol.getProduct(name, { etag: cached?.etag });
      if (res.status === "ok") {
        const data = { releases: res.data.releases } as unknown as Prisma.InputJsonValue;
        await deps.db.eolProduct.upsert({
          where: { name },
          create: { name, data, etag: res.etag, fetchedAt: now, movedTo: res.movedTo },
          update: { data, etag: res.etag, fetchedAt: now, movedTo: res.movedTo },
        });
        if (res.movedTo && res.movedTo !== name) {
          await deps.db.eolProduct.upsert({ where: { name: res.movedTo }, create: { name: res.movedTo, data, etag: res.etag, fetchedAt: now }, update: { data, etag: res.etag, fetchedAt: now } });
        }
      } else if (res.status === "not_modified" && cached) {
        await deps.db.eolProduct.update({ where: { name }, data: { fetchedAt: now, movedTo: res.movedTo ?? cached.movedTo } });
      }
    } catch {
      /* a product that fails is tried again on a later tick */
    }
  }
  return { requests };
}
