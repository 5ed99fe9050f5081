// When an image's source label is read: once a week per repository, each at
// its own hour of the week so that repositories first seen together do not
// all fall due together; a failed read is retried within hours, not a week.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const LABEL_REFRESH_MS = 7 * DAY;
/** The latest a repository's weekly read moves from exactly a week, so reads spread over the week. */
export const LABEL_SPREAD_MS = DAY;

/** A stable offset in [0, LABEL_SPREAD_MS) from a repository's id. */
export function labelOffsetMs(repositoryId: string): number {
  let h = 2166136261;
  for (let i = 0; i < repositoryId.length; i++) h = Math.imul(h ^ repositoryId.charCodeAt(i), 16777619) >>> 0;
  return (h % (LABEL_SPREAD_MS / MINUTE)) * MINUTE;
}

/** Next read after a successful one. */
export function nextLabelReadAt(readAt: Date, repositoryId: string): Date {
  return new Date(readAt.getTime() + LABEL_REFRESH_MS + labelOffsetMs(repositoryId));
}

/** Next attempt after `failures` failed reads in a row: 15 min, 30 min, 1 h … at most a day. */
export function labelRetryAt(now: Date, failures: number): Date {
  return new Date(now.getTime() + Math.min(DAY, 15 * MINUTE * 2 ** Math.max(0, failures - 1)));
}

/**
 * Is the source label the release source of any service on this repository? Not when the repository is an
 * official image (its label names the packaging repository), the catalog names the forge, or every service
 * tracking it names one in its policy; nor when no service tracks it.
 */
export function isSourceLabelNeeded(input: { repositoryKey: string; catalogNamesForge: boolean; policiesNameForge: readonly boolean[] }): boolean {
  if (input.repositoryKey.startsWith("docker.io/library/")) return false;
  if (input.catalogNamesForge) return false;
  return input.policiesNameForge.some((names) => !names);
}
