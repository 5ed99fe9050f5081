// The releases between the oldest version that runs and the newest, newest
// first, each with its notes and the environments already running it.
import { formatDay } from "@/components/ui/format";
import type { ServiceDetail } from "@/lib/services/services/get-detail";

export function ReleasesList({ detail }: { detail: ServiceDetail }) {
  if (!detail.oldest_running) return <p className="muted">No version is known yet for what runs.</p>;
  const state = detail.row?.upstream.state ?? "unchecked";
  if (detail.releases.length === 0) {
    // Only a good check may say nothing newer is out.
    if (state !== "ok") return <p className="muted">Newer releases are not known: the upstream check {state === "failed" ? "failed" : state === "stale" ? "has not succeeded recently" : "has not run yet"}.</p>;
    return <p className="muted">Nothing newer than {detail.oldest_running} is out.</p>;
  }
  return (
    <ol className="releases" aria-label={`Releases after ${detail.oldest_running}`}>
      {detail.releases.map((r) => (
        <li key={r.version}>
          <span className="v strong">{r.version}</span>
          <span className="muted">{r.published_at ? `published ${formatDay(r.published_at)}` : r.first_seen ? `seen ${formatDay(r.first_seen)}` : ""}</span>
          {r.running_in.map((env) => <span key={env} className="pill info">runs in {env}</span>)}
          {r.release_notes_url ? <a href={r.release_notes_url} rel="noreferrer" className="notes">Release notes<span className="sr"> for {r.version}</span></a> : null}
        </li>
      ))}
      <li className="base"><span className="v">{detail.oldest_running}</span><span className="muted">oldest version running</span></li>
    </ol>
  );
}
