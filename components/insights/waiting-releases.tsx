// Releases held back by a minimum release age: "3.0.0 waits until Nov 30 (minimum age 3d)".
import type { WaitingRelease } from "@/lib/domain/insights";
import { formatShortDay, formatUtcMinute } from "@/lib/render/dates";

export function describeWaiting(w: Pick<WaitingRelease, "version" | "waitsUntil" | "minAge">): string {
  return `${w.version} waits until ${formatShortDay(w.waitsUntil)} (minimum age ${w.minAge})`;
}

export function WaitingReleases({ items, showService = true }: { items: readonly WaitingRelease[]; showService?: boolean }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="waiting-h" className="card" data-testid="waiting-releases">
      <h2 id="waiting-h">Waiting for their minimum age</h2>
      <ul>
        {items.map((w) => (
          <li key={`${w.service}/${w.environment}`}>
            {showService ? <strong>{w.service}</strong> : null}
            {showService ? " · " : null}
            {w.environment} runs <span className="v">{w.running}</span>:{" "}
            <span title={`${formatUtcMinute(w.waitsUntil)} UTC`}>{describeWaiting(w)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
