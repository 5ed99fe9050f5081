// Pure mapping from an image version to its forge release and release notes.
import type { ForgeRelease } from "./types";

const PRERELEASE_SUFFIX = /^[-.+]?(?:alpha|beta|rc|pre|preview|dev|snapshot)/i;

/**
 * The release tags an image version may have been published under: the
 * policy's `release_tag_prefix` first, then the version itself and `v<version>`.
 */
export function releaseTagCandidates(version: string, prefix?: string | null): string[] {
  const bare = version.replace(/^[vV](?=\d)/, "");
  const versions = [bare];
  // `1.27.3-alpine` is released as `1.27.3`; `3.0.0-rc1` is not `3.0.0`.
  const core = /^\d+(?:\.\d+)*/.exec(bare)?.[0];
  if (core && core !== bare && !PRERELEASE_SUFFIX.test(bare.slice(core.length))) versions.push(core);
  const tags: string[] = [];
  for (const v of versions) {
    if (prefix) tags.push(`${prefix}${v}`);
    tags.push(v, `v${v}`);
  }
  return [...new Set(tags)];
}

/** The release published for an image version, or null. */
export function releaseForVersion(
  version: string,
  releases: readonly ForgeRelease[],
  opts: { prefix?: string | null | undefined } = {},
): ForgeRelease | null {
  const byTag = new Map<string, ForgeRelease>();
  const byLowerTag = new Map<string, ForgeRelease>();
  for (const release of releases) {
    byTag.set(release.tag, release);
    if (!byLowerTag.has(release.tag.toLowerCase())) byLowerTag.set(release.tag.toLowerCase(), release);
  }
  const candidates = releaseTagCandidates(version, opts.prefix);
  for (const tag of candidates) {
    const hit = byTag.get(tag);
    if (hit) return hit;
  }
  for (const tag of candidates) {
    const hit = byLowerTag.get(tag.toLowerCase());
    if (hit) return hit;
  }
  return null;
}

/** The policy's `changelog` template with `{version}` filled in (URL-encoded). */
export function changelogUrl(template: string, version: string): string {
  return template.split("{version}").join(encodeURIComponent(version));
}
