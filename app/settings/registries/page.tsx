// The registries the server checks itself, each with its pull budget where
// the registry rations pulls (Docker Hub), and when that budget refills.
import { SettingsFrame } from "@/components/settings/settings-frame";
import { formatClock } from "@/components/ui/format";
import { requirePageSession } from "@/lib/http/context";
import { listServerRegistries } from "@/lib/services/upstream/list-server-registries";

export const dynamic = "force-dynamic";
export const metadata = { title: "Registries" };

export default async function RegistriesPage() {
  const { ctx, workspaceName } = await requirePageSession();
  const { items } = await listServerRegistries({ ctx });
  const now = ctx.now;
  return (
    <SettingsFrame current="registries" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Registries</h1>
          <p className="muted">Public registries the server checks itself. Where a registry rations pulls, the server spends them as if they were yours: digests of running images first, source labels over the week, never the last few.</p>
        </div>
      </div>
      <table className="data">
        <caption className="sr">Registries the server checks</caption>
        <thead><tr><th scope="col">Registry</th><th scope="col">Signed in</th><th scope="col">Pull budget</th><th scope="col">Left now</th><th scope="col">Next pull</th><th scope="col">Full again</th></tr></thead>
        <tbody>
          {items.map((r) => (
            <tr key={r.host}>
              <th scope="row" className="mono">{r.host}{r.name ? <span className="muted"> ({r.name})</span> : null}{r.mirror ? <span className="muted"> through the mirror {r.mirror}</span> : null}</th>
              <td>{r.signed_in ? "yes" : <span className="muted">no</span>}</td>
              <td>{r.rationed ? `${r.limit} pulls per ${Math.round((r.window_seconds ?? 3600) / 60)} min` : <span className="muted">{r.mirror ? "none (the mirror sends no rate-limit headers)" : "not rationed"}</span>}</td>
              <td>{r.rationed ? `${r.remaining} (${r.pulls_in_window} spent by Driftwatch)` : "—"}</td>
              <td className="nowrap">{r.next_pull_at ? (new Date(r.next_pull_at) <= now ? "now" : `about ${formatClock(r.next_pull_at, now)}`) : "—"}</td>
              <td className="nowrap">{r.rationed ? (r.full_at ? `about ${formatClock(r.full_at, now)}` : "full") : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">Signing in raises Docker Hub&apos;s limit from 10 to 100 pulls an hour: set DRIFTWATCH_DOCKERHUB_USERNAME and DRIFTWATCH_DOCKERHUB_TOKEN (a personal access token). A new sign-in is a new budget, used at once. To read Docker Hub through a mirror or pull-through cache, set DRIFTWATCH_DOCKERHUB_MIRROR (https://host[:port]); its pulls are budgeted only if it passes Docker Hub&apos;s rate-limit headers on. Registries behind a sign-in of your own are checked by your agents.</p>
    </SettingsFrame>
  );
}
