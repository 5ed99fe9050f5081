// End of life as the matrix and drift see it: the product a service's image
// belongs to (policy `eol`, else the catalog, else endoflife.date's purl list),
// and the state of the running version's cycle, from cached product data.
import type { ServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { eolState, findCycle, normaliseRepositoryKey, repositoryKeysForPurl, resolveEolProduct, type EolCycle, type EolState, type PurlIdentifier } from "@/lib/domain/eol";
import type { Policy } from "@/lib/domain/policy";
import { catalogFor } from "../services/catalog-lookup";
import type { RequestCtx } from "../context";
import { listEolCycles } from "@/lib/db/queries/eol/list-eol-cycles";
import { listPurls, PURLS_CACHE_KEY } from "@/lib/db/queries/eol/list-purls";

export { PURLS_CACHE_KEY };

export type EolStatus = { product: string; cycle: string; eol_date: string | null; state: EolState };
export type EolLookup = (serviceId: string, version: string) => EolStatus | null;

/** Repository key → the first product whose package URLs name it: productForImage's answer, looked up in O(1) (matching every service against every package URL costs seconds in a large workspace). */
export function indexPurls(purls: readonly PurlIdentifier[]): Map<string, string> {
  const byImage = new Map<string, string>();
  for (const entry of purls) {
    for (const key of repositoryKeysForPurl(entry.identifier)) if (!byImage.has(key)) byImage.set(key, entry.product.name);
  }
  return byImage;
}

/**
 * The product to look up for a service: its policy's `eol`, else the catalog's, else the first
 * product whose package URLs name its image (productForImage, with the package URLs indexed).
 */
export function eolProductOf(facts: Pick<ServiceFacts, "policy" | "repository" | "runningRepository">, byImage: ReadonlyMap<string, string>): string | null {
  const repository = facts.repository ?? facts.runningRepository;
  const key = repository ? normaliseRepositoryKey(repository) : null;
  return resolveEolProduct({
    policyEol: ((facts.policy ?? null) as Policy | null)?.eol,
    catalogEol: repository ? catalogFor(repository)?.eol : undefined,
    purlMatch: repository ? (key === null ? null : (byImage.get(key) ?? null)) : undefined,
  });
}

export async function loadPurls(ctx: Pick<RequestCtx, "db">): Promise<PurlIdentifier[]> {
  return listPurls(ctx.db);
}

/** Cycles of cached products, following renames. */
export async function loadEolProducts(ctx: Pick<RequestCtx, "db">, names: string[]): Promise<Map<string, EolCycle[]>> {
  return listEolCycles(ctx.db, names);
}

/** The product each service's end of life is looked up in, and the cycles of those products: what the matrix and drift both read. */
export async function loadEolProductsOf(
  ctx: Pick<RequestCtx, "db">, services: readonly ServiceFacts[],
): Promise<{ productBy: Map<string, string>; products: Map<string, EolCycle[]> }> {
  const byImage = indexPurls(await listPurls(ctx.db));
  const productBy = new Map<string, string>();
  for (const s of services) {
    const product = eolProductOf(s, byImage);
    if (product) productBy.set(s.id, product);
  }
  if (productBy.size === 0) return { productBy, products: new Map() };
  return { productBy, products: await listEolCycles(ctx.db, [...productBy.values()]) };
}

export async function loadEolForRuns(ctx: Pick<RequestCtx, "db" | "now" | "config">, services: ServiceFacts[]): Promise<EolLookup> {
  if (!ctx.config.eolEnabled || services.length === 0) return () => null;
  const { productBy, products } = await loadEolProductsOf(ctx, services);
  const now = ctx.now;
  return (serviceId, version) => {
    const product = productBy.get(serviceId);
    const releases = product ? products.get(product) : undefined;
    if (!product || !releases) return null;
    const cycle = findCycle(version, releases);
    if (!cycle) return null;
    return { product, cycle: cycle.name, eol_date: cycle.eolFrom ? cycle.eolFrom.slice(0, 10) : null, state: eolState(cycle, now) };
  };
}
