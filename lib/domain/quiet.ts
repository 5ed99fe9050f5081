// Quiet targets: a target whose last accepted report is older than the quiet
// delay (DRIFTWATCH_QUIET_AFTER) may no longer run what it last said, so what it
// shows is marked quiet with its age, never as live.

export const TARGET_STATES = ["reporting", "quiet"] as const;
export type TargetState = (typeof TARGET_STATES)[number];

/** A target that never reported is quiet: nothing it shows is known to be live. */
export function targetStateOf(lastSeenAt: Date | null, now: Date, quietAfterMs: number): TargetState {
  return lastSeenAt !== null && now.getTime() - lastSeenAt.getTime() <= quietAfterMs ? "reporting" : "quiet";
}

/** When the next of these targets turns quiet by the clock alone (ms), or null when none will. */
export function nextQuietAt(lastSeen: readonly (Date | null)[], now: Date, quietAfterMs: number): number | null {
  let next: number | null = null;
  for (const seen of lastSeen) {
    if (seen === null) continue;
    const at = seen.getTime() + quietAfterMs + 1;
    if (at > now.getTime() && (next === null || at < next)) next = at;
  }
  return next;
}
