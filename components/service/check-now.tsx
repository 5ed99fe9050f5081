"use client";
// "Check now": the server action checks the repository and answers with what
// the check found, shown here in place: the new tags and the newest release,
// or the failure line, with the upstream state it leaves. The action re-reads
// the page too, so the header's state follows without a reload.
import { useActionState } from "react";
import { checkNowAction, type CheckState } from "@/app/services/[name]/actions";
import type { CheckNowResult } from "@/lib/services/upstream/check-now";

const STATE_PILL: Record<CheckNowResult["state"], { tone: string; text: string }> = {
  ok: { tone: "ok", text: "upstream ok" },
  failed: { tone: "bad", text: "upstream check failed" },
  stale: { tone: "warn", text: "upstream stale" },
  unchecked: { tone: "neutral", text: "upstream unchecked" },
};

function resultLine(r: CheckNowResult): string {
  switch (r.outcome) {
    case "queued": return `${r.repository} is private: your agents check it on their next report.`;
    case "running": return `A check of ${r.repository} is still running elsewhere; its result shows here when you check again.`;
    case "failed": return `The check of ${r.repository} failed: ${r.error ?? "no reason was given"}.`;
    case "checked": {
      const found = r.new_tags.length ? `${r.new_tags.length === 1 ? "1 new tag" : `${r.new_tags.length} new tags`}` : "no new tags";
      if (r.newest === null) return `Checked ${r.repository}: ${found}; no release matches the running line.`;
      if (r.newest !== r.previous_newest) return `Checked ${r.repository}: ${found}; new release ${r.newest}${r.previous_newest ? ` (newest was ${r.previous_newest})` : ""}.`;
      return `Checked ${r.repository}: ${found}; the newest is still ${r.newest}.`;
    }
  }
}

export function CheckNow({ service }: { service: string }) {
  const [state, action, pending] = useActionState<CheckState, FormData>(checkNowAction, { status: "idle" });
  const r = state.status === "done" ? state.result : undefined;
  const pill = r ? STATE_PILL[r.state] : undefined;
  return (
    <form action={action} className="check-now">
      <input type="hidden" name="service" value={service} />
      <button type="submit" disabled={pending}>{pending ? "Checking…" : "Check now"}</button>
      <div role="status" className={state.status === "error" || r?.outcome === "failed" ? "check-msg bad" : "check-msg"} data-testid="check-result" data-outcome={r?.outcome ?? state.status}>
        {pending ? "Checking the registry…" : state.status === "error" ? state.message : r ? (
          <>
            {resultLine(r)}
            {r.new_tags.length ? <span className="sub">New: <span className="mono" data-testid="check-new-tags">{r.new_tags.join(", ")}</span></span> : null}
            {pill ? <> <span className={`pill ${pill.tone}`} data-testid="check-state" data-state={r.state}>{pill.text}</span></> : null}
          </>
        ) : null}
      </div>
    </form>
  );
}
