// Which exact version a running tag is. A digest match upstream is exact; a
// tag that names a version is that version, unless upstream shows it is a
// line tag that moves (`1.27` beside `1.27.3`, `7` beside `7.0.14`): then
// only a digest match can tell, and without one the version is unknown.
import { isMovingTag, movingTagCandidates, parseTag, type ParsedTag } from "@/lib/domain/versions";

/** True when `tags` holds longer versions of the same line (same prefix and flavour, same leading numbers). */
export function isLineTag(tag: string, upstreamTags: readonly string[]): boolean {
  const p = parseTag(tag);
  // A tag naming its build (`17.0.8_7`, `1.26.2-r3-ls290`) is one image, never a line.
  if (p.kind !== "version" || p.isPrerelease || p.revision !== null) return false;
  const lead = p.prefix + p.numbers.join(".");
  const extensions: string[] = [];
  for (const t of upstreamTags) {
    if (t.length <= tag.length || !t.startsWith(lead)) continue;
    const next = t.charCodeAt(lead.length);
    if (next !== 46 && next !== 117 /* 8u432 */) continue;
    const q = parseTag(t);
    if (q.kind === "version" && q.prefix === p.prefix && q.flavour === p.flavour && q.numbers.length > p.numbers.length && p.numbers.every((n, i) => q.numbers[i] === n)) {
      if (p.numbers.length !== 3 || q.numbers.length !== 4) return true;
      extensions.push(t);
    }
  }
  // Only four-part tags extend it: a line tag (24.10.2 → 24.10.2.80) unless other three-part releases stand alone, when they are respins.
  return extensions.length > 0 && !hasUnextendedRelease(p, upstreamTags);
}

/** Whether some three-part release of `p`'s line has no four-part tag beside it. */
function hasUnextendedRelease(p: ParsedTag, upstreamTags: readonly string[]): boolean {
  const three = new Set<string>();
  const extended = new Set<string>();
  for (const t of upstreamTags) {
    const q = parseTag(t);
    if (q.kind !== "version" || q.isPrerelease || q.prefix !== p.prefix || q.flavour !== p.flavour) continue;
    if (q.numbers.length === 3) three.add(q.numbers.join("."));
    else if (q.numbers.length === 4) extended.add(q.numbers.slice(0, 3).join("."));
  }
  for (const b of three) if (!extended.has(b)) return true;
  return false;
}

export function exactVersionOf(run: { tag: string; tagVersion: string | null; resolvedVersion: string | null }, upstreamTags: readonly string[] | null): string | null {
  if (run.resolvedVersion) return run.resolvedVersion;
  if (!run.tagVersion) return null;
  if (upstreamTags && isLineTag(run.tag, upstreamTags)) return null;
  return run.tagVersion;
}

/** `1.27 = 1.27.3` for a resolved moving tag, else the tag. */
export function displayTag(tag: string, version: string | null): string {
  return version && version !== tag ? `${tag} = ${version}` : tag;
}

/** At most this many HEADs to resolve one digest; older candidates wait for the daily retry. */
export const MAX_RESOLUTION_CANDIDATES = 20;

/**
 * Exact version tags a running tag could be, newest first: the longer versions
 * of a line tag (`1.27` → `1.27.x`, `7` → `7.x.y`, `16-alpine3.20` →
 * `16.x-alpine3.20` or `16.x-alpine`), or what the version engine compares a
 * moving tag with (`latest`, `alpine`). Empty for an exact version.
 */
export function resolutionCandidates(tag: string, upstreamTags: readonly string[]): string[] {
  const p = parseTag(tag);
  const isCandidate = isLineTag(tag, upstreamTags) || isMovingTag(tag) || p.kind !== "version";
  return isCandidate ? movingTagCandidates(tag, upstreamTags).slice(0, MAX_RESOLUTION_CANDIDATES) : [];
}
