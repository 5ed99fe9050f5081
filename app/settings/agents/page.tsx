// Agents and targets: the keys agents report with (when each was last used,
// which targets it reports), and every target with its last report.
import Link from "next/link";
import { FlashMessage, readFlash } from "@/components/settings/flash";
import { SettingsFrame } from "@/components/settings/settings-frame";
import { formatWhen, When } from "@/components/ui/format";
import { requirePageSession } from "@/lib/http/context";
import { getDockerHost } from "@/lib/server/docker-host";
import { listAgentKeys } from "@/lib/services/agent-keys/list";
import { listDockerHostWatches } from "@/lib/services/docker-host/list";
import { listEnvironments } from "@/lib/services/environments/list";
import { hasRole } from "@/lib/services/context";
import { listTargets } from "@/lib/services/targets/list";
import { revokeAgentKeyAction } from "./actions";
import { CreateAgentKeyForm } from "./create-agent-form";
import { DockerHostSection } from "./docker-host-section";

import { formatAge } from "@/lib/domain/words";
import { targetStateOf } from "@/lib/domain/quiet";

export const dynamic = "force-dynamic";
export const metadata = { title: "Agents and targets" };

const KIND: Record<string, string> = { docker: "Docker", kubernetes: "Kubernetes", swarm: "Swarm", nomad: "Nomad", compose_git: "Compose in Git" };

export default async function AgentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const flash = await readFlash(searchParams);
  const isAdmin = hasRole(ctx.actor, "admin");
  const [keys, targets, probe, watches, environments] = await Promise.all([
    isAdmin ? listAgentKeys({ ctx }) : Promise.resolve(null), listTargets({ ctx }), getDockerHost().probe(), listDockerHostWatches({ ctx }), listEnvironments({ ctx }),
  ]);
  const now = ctx.now;
  const runtimes = targets.items.filter((t) => t.kind !== "compose_git");
  return (
    <SettingsFrame current="agents" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Agents and targets</h1>
          <p className="muted">Agents run beside your orchestrators and report what runs. Each report is the whole state of one target.</p>
        </div>
      </div>
      <FlashMessage flash={flash} />
      <section aria-labelledby="keys-h">
        <h2 id="keys-h">Agent keys</h2>
        {keys ? (
          <div className="grid">
            <div className="card"><CreateAgentKeyForm baseUrl={ctx.config.baseUrl} /></div>
            <table className="data">
              <caption className="sr">Agent keys</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Reports</th><th scope="col">State</th><th scope="col"><span className="sr">Actions</span></th></tr></thead>
              <tbody>
                {keys.items.length === 0 ? (
                  <tr><td colSpan={7} className="muted">No agent keys yet.</td></tr>
                ) : (
                  keys.items.map((k) => (
                    <tr key={k.id}>
                      <th scope="row">{k.name}</th>
                      <td className="mono">{k.prefix}…</td>
                      <td className="nowrap">{formatWhen(k.created_at)}</td>
                      <td><When at={k.last_used_at} now={now} /></td>
                      <td>{k.targets.length ? k.targets.join(", ") : <span className="muted">no targets yet</span>}</td>
                      <td>{k.revoked_at ? <span className="pill neutral">revoked</span> : <span className="pill ok">active</span>}</td>
                      <td>
                        {k.revoked_at ? null : (
                          <form action={revokeAgentKeyAction}>
                            <input type="hidden" name="id" value={k.id} />
                            <input type="hidden" name="name" value={k.name} />
                            <button type="submit" className="danger small" aria-label={`Revoke agent key ${k.name}`}>Revoke</button>
                          </form>
                        )}
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="hint">Owners and admins manage agent keys.</p>
        )}
      </section>
      <DockerHostSection probe={probe} watches={watches.items} environments={environments.items.map((e) => e.name)} isAdmin={isAdmin} baseUrl={ctx.config.baseUrl} now={now} />
      <section aria-labelledby="targets-h">
        <h2 id="targets-h">Runtime targets</h2>
        <table className="data">
          <caption className="sr">Targets reported by agents</caption>
          <thead><tr><th scope="col">Target</th><th scope="col">Kind</th><th scope="col">Environment</th><th scope="col">Workloads</th><th scope="col">Last report</th><th scope="col">Observed at</th></tr></thead>
          <tbody>
            {runtimes.length === 0 ? (
              <tr><td colSpan={6} className="muted">No agent has reported yet.</td></tr>
            ) : (
              runtimes.map((t) => {
                const stale = targetStateOf(t.last_report_at ? new Date(t.last_report_at) : null, now, ctx.config.quietAfterMs) === "quiet";
                return (
                  <tr key={t.name}>
                    <th scope="row">{t.name}</th>
                    <td>{KIND[t.kind] ?? t.kind}</td>
                    <td>{t.environment}</td>
                    <td>{t.workloads}</td>
                    <td><When at={t.last_report_at} now={now} />{stale ? <span className="pill warn">quiet</span> : null}</td>
                    <td className="muted nowrap">{formatWhen(t.last_observed_at, "—")}</td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
        <p className="hint">A target that has not reported for {formatAge(ctx.config.quietAfterMs)} (<code>DRIFTWATCH_QUIET_AFTER</code>) is marked quiet, here and wherever its versions show. Compose-in-Git targets are under <Link href="/settings/compose">Compose in Git</Link>.</p>
      </section>
    </SettingsFrame>
  );
}
