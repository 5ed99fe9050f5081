// The domain shape every forge adapter returns.
import type { ForgeKind } from "@/lib/domain/forge-hosts";

export type { ForgeKind };

/** One published release: its tag, title, publication time (RFC 3339 UTC) and release-notes page. */
export type ForgeRelease = {
  tag: string;
  name: string | null;
  publishedAt: string | null;
  url: string;
  prerelease: boolean;
};

export type ListReleasesInput = {
  kind: ForgeKind;
  /** `owner/repo` for GitHub, `host/group/project` for GitLab. */
  repository: string;
  /** ETag of the first page from the last successful read. */
  etag?: string | null | undefined;
};

export type ListReleasesResult =
  | { notModified: true }
  | { notModified: false; etag: string | null; releases: ForgeRelease[] };

/** Release listings stop after this many pages (100 releases each). */
export const DEFAULT_MAX_PAGES = 10;

/** An RFC 3339 time in UTC, or null when absent or unparseable. */
export function toUtc(time: string | null | undefined): string | null {
  if (!time) return null;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
