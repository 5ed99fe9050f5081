// End-of-life data for the products in use, from endoflife.date: each
// product cached for a day (ETag, renames followed), the purl list weekly.
// With end-of-life lookups off, nothing is requested at all.
import type { Prisma } from "@/lib/db/client";
import { loadServiceFacts } from "@/lib/db/queries/services";
import { eolProductFor, loadPurls, PURLS_CACHE_KEY } from "../eol-status";
import type { CheckDeps } from "./check-repository";

const DAY = 86_400_000;
const WEEK = 7 * DAY;

export async function syncEol(deps: CheckDeps, opts: { force?: boolean } = {}): Promise<{ requests: number }> {
  if (!deps.config.eolEnabled) return { requests: 0 };
  const now = deps.now();
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

  const purls = await loadPurls(deps);
  const workspaces = await deps.db.workspace.findMany({ select: { id: true } });
  const products = new Set<string>();
  for (const ws of workspaces) {
    for (const facts of await loadServiceFacts(deps.db, ws.id)) {
      const product = eolProductFor(facts, purls);
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
