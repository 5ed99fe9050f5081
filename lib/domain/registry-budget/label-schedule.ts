// When an image's source label is read: once a week per repository, each at
// its own minute of the week, so that repositories first read together (a
// fleet's first start) spread over the week instead of all falling due in the
// same hour again; a failed read is retried within hours, not a week.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const LABEL_REFRESH_MS = 7 * DAY;

/** The repository's own minute of the week (from the epoch), stable and spread by its id. */
export function labelOffsetMs(repositoryId: string): number {
  let h = 2166136261;
  for (let i = 0; i < repositoryId.length; i++) h = Math.imul(h ^ repositoryId.charCodeAt(i), 16777619) >>> 0;
  return (h % (LABEL_REFRESH_MS / MINUTE)) * MINUTE;
}

/** A read this late (waiting for quota) still keeps its minute of the week rather than skipping a week. */
const LATE_READ_MS = DAY;

/** Next read after a successful one: the repository's minute of the week, six days or more later. */
export function nextLabelReadAt(readAt: Date, repositoryId: string): Date {
  const earliest = readAt.getTime() + LABEL_REFRESH_MS - LATE_READ_MS;
  const wait = (((labelOffsetMs(repositoryId) - earliest) % LABEL_REFRESH_MS) + LABEL_REFRESH_MS) % LABEL_REFRESH_MS;
  return new Date(earliest + wait);
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
