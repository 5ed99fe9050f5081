// One line of the updates list, with its put-off actions (or, once put off,
// what acknowledges it and an undo).
import { Age, formatWhen } from "@/components/ui/format";
import { describeLineMove, describeLineTargets, type UpdateGroup, type UpdateReason } from "@/lib/domain/insights";
import type { UpdatesOut } from "@/lib/services/insights/updates";
import { REASON_NAME } from "@/lib/domain/words";

type Line = UpdatesOut["items"][number];

export const REASON_LABEL: Readonly<Record<UpdateReason, string>> = REASON_NAME;

export const REASON_TONE: Record<UpdateReason, "bad" | "warn" | "info" | "neutral"> = {
  eol_passed: "bad",
  eol_soon: "warn",
  major: "warn",
  minor: "info",
  behind_previous_env: "info",
  patch: "neutral",
};

/** What a line says when its upstream is not known: never read as "nothing newer". */
export const UPSTREAM_NOTE: Record<Line["upstream_state"], string | null> = {
  ok: null,
  failed: "upstream check failed: newer releases unknown",
  stale: "upstream not checked recently: newer releases unknown",
  unchecked: "upstream not checked yet",
};

function ackText(ack: NonNullable<Line["ack"]>): string {
  if (ack.skip_version) return `skipped ${ack.skip_version}, until a newer release is out`;
  const until = ack.until_version ? `until ${ack.until_version} runs` : null;
  const expires = ack.expires_at ? `until ${formatWhen(ack.expires_at)}` : null;
  return [until, expires].filter(Boolean).join(", or ") || "acknowledged";
}

/**
 * A row of the updates table. Its buttons belong to one form around the table
 * (putOffAction / undoPutOffAction): each button's value names its line, which
 * keeps a page of a hundred lines light.
 */
export function UpdateRow({ line, now, canAct, acknowledged = false, quiet = null }: { line: Line; now: Date; canAct: boolean; acknowledged?: boolean; quiet?: string | null }) {
  const label = `${line.service} in ${line.environment}`;
  const value = (choice: string) => [choice, line.service, line.environment, line.target_version ?? ""].join(" ");
  return (
    <tr>
      <th scope="row">
        <a href={`/services/${encodeURIComponent(line.service)}`}>{line.service}</a>
        {line.team ? <span className="sub">{line.team}</span> : null}
      </th>
      <td>{line.environment}{line.production ? <span className="prod">prod</span> : null}</td>
      <td className="move-cell">
        {line.promote ? (
          <>
            <span className="v">{line.running}</span>
            <span aria-hidden="true" className="arrow">→</span>
            <span className="sr"> to </span>
            <span className="v strong">{line.promote.version}</span>
            <span className="sub">promote from {line.promote.from_environment}{line.target_version && line.target_version !== line.promote.version ? `, then ${line.target_version}` : ""}</span>
          </>
        ) : (
          <>
            <span className="v">{line.running}</span>
            <span aria-hidden="true" className="arrow">→</span>
            <span className="sr"> to </span>
            <span className="v strong">{line.target_version ?? "?"}</span>
          </>
        )}
        {describeLineTargets(line) ? <span className="sub move-targets">{describeLineTargets(line)}</span> : null}
        {line.release_notes_url ? <a href={line.release_notes_url} rel="noreferrer" className="notes">notes<span className="sr"> for {line.target_version}</span></a> : null}
        {UPSTREAM_NOTE[line.upstream_state] ? <span className="sub upstream-note" data-upstream-state={line.upstream_state}>{UPSTREAM_NOTE[line.upstream_state]}</span> : null}
        {quiet ? <span className="sub quiet-note" data-testid="quiet-note">{quiet}</span> : null}
      </td>
      <td>
        {line.reasons.length > 0 ? line.reasons.map((r) => <span key={r} className={`pill ${REASON_TONE[r]}`}>{REASON_LABEL[r]}</span>) : <span className={`pill ${REASON_TONE[line.reason]}`}>{REASON_LABEL[line.reason]}</span>}
      </td>
      {acknowledged ? (
        <td className="muted">{line.ack ? ackText(line.ack) : "acknowledged"}</td>
      ) : (
        <td><Age at={line.open_since} now={now} /></td>
      )}
      {canAct ? (
        <td>
          {acknowledged ? (
            line.ack ? <button type="submit" name="undo" value={`${line.ack.id} ${line.service}`} className="small" aria-label={`Undo: put ${label} back on the list`}>Undo</button> : null
          ) : (
            <div className="put-off">
              {line.target_version ? <button type="submit" name="put" value={value("skip")} className="small" aria-label={`Skip ${line.target_version} for ${label}`}>Skip version</button> : null}
              <button type="submit" name="put" value={value("1w")} className="small" aria-label={`Put ${label} off for a week`}>1 week</button>
              <button type="submit" name="put" value={value("30d")} className="small" aria-label={`Put ${label} off for 30 days`}>30 days</button>
            </div>
          )}
        </td>
      ) : null}
    </tr>
  );
}

/** One row per service and target release, the environments as chips (the grouped view). */
export function UpdateGroupRow({ group }: { group: UpdateGroup }) {
  return (
    <tr>
      <th scope="row">
        <a href={`/services/${encodeURIComponent(group.service)}`}>{group.service}</a>
        {group.team ? <span className="sub">{group.team}</span> : null}
      </th>
      <td>
        {group.environments.map((c) => (
          <span key={c.environment} className="pill neutral env-chip" title={[describeLineMove({ running: c.running, target_version: group.target_version, promote: c.promote }), describeLineTargets(c)].filter(Boolean).join(" · ")}>
            {c.environment}{c.production ? " (prod)" : ""}
          </span>
        ))}
      </td>
      <td className="move-cell">
        <span className="v">{group.running}</span>
        <span aria-hidden="true" className="arrow">→</span>
        <span className="sr"> to </span>
        <span className="v strong">{group.target_version ?? "?"}</span>
        {group.environments.some((c) => c.promote) ? <span className="sub">promote through the pipeline first</span> : null}
      </td>
      <td>{group.reasons.map((r) => <span key={r} className={`pill ${REASON_TONE[r]}`}>{REASON_LABEL[r]}</span>)}</td>
    </tr>
  );
}
