// Which exact version a running tag is. A digest match upstream is exact; a
// tag that names a version is that version, unless upstream shows it is a
// line tag that moves (`1.27` beside `1.27.3`, `7` beside `7.0.14`): then
// only a digest match can tell, and without one the version is unknown.
import { parseTag } from "@/lib/domain/versions";

/** True when `tags` holds longer versions of the same line (same prefix and flavour, same leading numbers). */
export function isLineTag(tag: string, upstreamTags: readonly string[]): boolean {
  const p = parseTag(tag);
  if (p.kind !== "version" || p.isPrerelease) return false;
  const lead = p.numbers.join(".") + ".";
  for (const t of upstreamTags) {
    if (t.length <= tag.length || !t.startsWith(p.prefix + lead) ) continue;
    const q = parseTag(t);
    if (q.kind === "version" && q.prefix === p.prefix && q.flavour === p.flavour && q.numbers.length > p.numbers.length && p.numbers.every((n, i) => q.numbers[i] === n)) return true;
  }
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
