// Over the pages that show versions: targets that stopped reporting, so no one
// reads what they last said as what runs now.
import { lastReportAge, lastReportTitle } from "@/components/matrix/cell-text";
import { formatAge } from "@/lib/domain/words";
import type { QuietTarget } from "@/lib/services/targets/list-quiet";

export function QuietBanner({ targets, quietAfterMs, now }: { targets: readonly QuietTarget[]; quietAfterMs: number; now: Date }) {
  if (targets.length === 0) return null;
  return (
    <div className="alert registry-banner quiet-banner" role="status" data-testid="quiet-banner">
      <strong>{targets.length === 1 ? "A target is quiet" : `${targets.length} targets are quiet`}</strong>
      {`: no report for more than ${formatAge(quietAfterMs)}. What ${targets.length === 1 ? "it" : "they"} last reported is shown greyed with its age, and may no longer run.`}
      <ul>
        {targets.map((t) => (
          <li key={t.name}>
            <code>{t.name}</code> in {t.environment}: last report{" "}
            {t.last_seen_at ? <time dateTime={t.last_seen_at} title={lastReportTitle(t.last_seen_at)}>{lastReportAge(t.last_seen_at, now)}</time> : "never"}
          </li>
        ))}
      </ul>
    </div>
  );
}
