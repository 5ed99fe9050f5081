// A failing registry host is logged as one warning per host per interval,
// not a line per repository: the caller keeps one of these per process.
export const REGISTRY_WARN_INTERVAL_MS = 3_600_000;

export class HostWarnings {
  private readonly lastWarned = new Map<string, number>();

  constructor(private readonly intervalMs: number = REGISTRY_WARN_INTERVAL_MS) {}

  /** True at most once per host per interval; the caller logs the warning then. */
  shouldWarn(host: string, now: Date): boolean {
    const key = host.toLowerCase();
    const last = this.lastWarned.get(key);
    if (last !== undefined && now.getTime() - last < this.intervalMs) return false;
    this.lastWarned.set(key, now.getTime());
    return true;
  }

  /** A host that answers again may warn at once when it fails next. */
  recovered(host: string): void {
    this.lastWarned.delete(host.toLowerCase());
  }
}
