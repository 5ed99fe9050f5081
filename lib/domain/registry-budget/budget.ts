// The pull budget of one rationed registry host, as every process on the
// database sees it: our own pulls in the host's sliding window (a ledger), the
// host's last `ratelimit-remaining`, and a block after a 429. What correctness
// needs now (the manifests that resolve a platform digest) may spend down to a
// reserve; source labels, which can wait, take at most half of what is left
// and at most half of a window's pulls, so the user's own `docker pull`s from
// the same address keep working.

export type PullPurpose = "resolve" | "label";

export type BudgetView = {
  /** Pulls the host allows per window (its `ratelimit-limit`, else the profile's). */
  limit: number;
  windowMs: number;
  /** Our pulls still inside the window, oldest first. */
  pulls: readonly { at: Date; purpose: PullPurpose }[];
  /** The host's last `ratelimit-remaining`, when it was read, and our pulls reserved since (not in it). */
  headerRemaining: number | null;
  headerAt: Date | null;
  pullsSinceHeader: number;
  /** No pull before this (a 429's Retry-After, or a remaining of 0). */
  blockedUntil: Date | null;
};

/** Pulls never spent: room for the user's own pulls and for our reads going wrong. */
export function reserveOf(limit: number): number {
  return Math.max(2, Math.ceil(limit / 10));
}

/** Pulls left in the window: our own ledger, and the host's word when it is fresh. */
export function remainingPulls(view: BudgetView, now: Date): number {
  const inWindow = view.pulls.filter((p) => p.at.getTime() > now.getTime() - view.windowMs);
  let remaining = view.limit - inWindow.length;
  if (view.headerRemaining !== null && view.headerAt !== null && now.getTime() - view.headerAt.getTime() < view.windowMs) {
    remaining = Math.min(remaining, view.headerRemaining - view.pullsSinceHeader);
  }
  return Math.max(0, remaining);
}

/** May `pulls` pulls be spent for this purpose now? */
export function canSpend(view: BudgetView, now: Date, purpose: PullPurpose, pulls: number): boolean {
  if (pulls <= 0) return true;
  if (view.blockedUntil && view.blockedUntil.getTime() > now.getTime()) return false;
  const spendable = remainingPulls(view, now) - reserveOf(view.limit);
  if (purpose === "resolve") return pulls <= spendable;
  const labelPulls = view.pulls.filter((p) => p.purpose === "label" && p.at.getTime() > now.getTime() - view.windowMs).length;
  return pulls <= spendable / 2 && labelPulls + pulls <= (view.limit - reserveOf(view.limit)) / 2;
}

/** The earliest time `pulls` pulls may be spent for this purpose (now when they may), assuming no other pull meanwhile. */
export function nextSpendAt(view: BudgetView, now: Date, purpose: PullPurpose, pulls: number): Date {
  if (canSpend(view, now, purpose, pulls)) return now;
  const candidates = [
    ...view.pulls.map((p) => p.at.getTime() + view.windowMs),
    ...(view.headerAt ? [view.headerAt.getTime() + view.windowMs] : []),
    ...(view.blockedUntil ? [view.blockedUntil.getTime()] : []),
  ]
    .filter((t) => t > now.getTime())
    .sort((a, b) => a - b);
  for (const t of candidates) {
    // A moment after the pull leaves the window (the window excludes its start).
    const at = new Date(t + 1);
    if (canSpend(view, at, purpose, pulls)) return at;
  }
  return new Date(now.getTime() + view.windowMs);
}
