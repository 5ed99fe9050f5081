// Tag listing: `tags/list` pages followed through `Link: <…>; rel="next"`
// until it stops. Guards: a page URL seen twice is a loop; a page that brings
// only tags already seen means the list changed under us (or the registry
// restarted from the top), so the listing starts over once; a page cap.
import { unavailable, parseBody, statusError } from "@/lib/adapters/registries/errors";
import { tagsListSchema } from "@/lib/adapters/registries/schemas";
import type { RepoFetch } from "@/lib/adapters/registries/transport";

export const TAGS_PAGE_SIZE = 1000;
const MAX_PAGES = 500;
const MAX_RESTARTS = 1;
const TAGS_MAX_BYTES = 32 * 1024 * 1024;

/** The `rel="next"` target of a `Link` header, or null. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const m of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]*)*)/g)) {
    const params = m[2] ?? "";
    if (/;\s*rel\s*=\s*"?(?:[^";,]*\s)?next(?:\s[^";,]*)?"?/i.test(params)) return m[1] ?? null;
  }
  return null;
}

/** Keeps only path and query of a next link, on the same registry: a Link never sends us elsewhere. */
function samePath(link: string, path: string): string {
  const url = new URL(link, "https://registry.invalid");
  if (url.pathname !== `/v2/${path}/tags/list`) throw unavailable(`tags/list of ${path}: Link points at ${url.pathname}`);
  return url.pathname + url.search;
}

type Outcome = { tags: string[]; changed: boolean };

async function listOnce(fetch: RepoFetch, path: string): Promise<Outcome> {
  const what = `tags of ${path}`;
  const tags: string[] = [];
  const seen = new Set<string>();
  let next: string | null = `/v2/${path}/tags/list?n=${TAGS_PAGE_SIZE}`;
  const visited = new Set<string>([next]);
  for (let page = 1; next !== null; page++) {
    if (page > MAX_PAGES) throw unavailable(`${what}: more than ${MAX_PAGES} pages`);
    const ex = await fetch("GET", next, { headers: { accept: "application/json" }, maxBytes: TAGS_MAX_BYTES });
    if (ex.status !== 200) throw statusError(ex.status, ex.body, what);
    const body = parseBody(tagsListSchema, ex.body, what);
    const pageTags = body.tags ?? [];
    let added = 0;
    for (const tag of pageTags) {
      if (seen.has(tag)) continue;
      seen.add(tag);
      tags.push(tag);
      added++;
    }
    const link = nextLink(ex.headers.get("link"));
    if (link === null) return { tags, changed: false };
    if (page > 1 && added === 0 && pageTags.length > 0) return { tags, changed: true };
    next = samePath(link, path);
    if (visited.has(next)) throw unavailable(`${what}: paging loops back to ${next}`);
    visited.add(next);
  }
  return { tags, changed: false };
}

/** Every tag of a repository, de-duplicated, in the registry's order. */
export async function listAllTags(fetch: RepoFetch, path: string): Promise<string[]> {
  for (let attempt = 0; attempt <= MAX_RESTARTS; attempt++) {
    const outcome = await listOnce(fetch, path);
    if (!outcome.changed) return outcome.tags;
  }
  throw unavailable(`tags of ${path}: the tag list kept changing while it was paged`);
}
