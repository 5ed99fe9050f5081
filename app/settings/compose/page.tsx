// Compose-in-Git targets: Compose files in a Git repository declare what
// should run in an environment. Listed with the last commit read and its error.
import { SettingsFrame } from "@/components/settings/settings-frame";
import { When } from "@/components/ui/format";
import { requirePageSession } from "@/lib/http/context";
import { hasRole } from "@/lib/services/context";
import { listEnvironments } from "@/lib/services/environments/list";
import { listTargets } from "@/lib/services/targets/list";
import { ComposeTargetForm } from "./compose-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Compose in Git" };

export default async function ComposePage() {
  const { ctx, workspaceName } = await requirePageSession();
  const [targets, envs] = await Promise.all([listTargets({ ctx }), listEnvironments({ ctx })]);
  const compose = targets.items.filter((t) => t.kind === "compose_git");
  const now = ctx.now;
  return (
    <SettingsFrame current="compose" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Compose in Git</h1>
          <p className="muted">Compose files in Git say what should run. Where an environment also has agents, differences become <em>declared</em> drift; where it has only Compose files, the matrix shows the declared versions.</p>
        </div>
      </div>
      <table className="data">
        <caption className="sr">Compose-in-Git targets</caption>
        <thead><tr><th scope="col">Target</th><th scope="col">Environment</th><th scope="col">Repository</th><th scope="col">Files</th><th scope="col">Last commit</th><th scope="col">Read</th></tr></thead>
        <tbody>
          {compose.length === 0 ? (
            <tr><td colSpan={6} className="muted">No Compose-in-Git targets yet.</td></tr>
          ) : (
            compose.map((t) => (
              <tr key={t.name}>
                <th scope="row">{t.name}</th>
                <td>{t.environment}</td>
                {t.repository_url ? (
                  <>
                    <td><span className="mono">{t.repository_url}</span><span className="sub">branch {t.branch}{t.read_by === "agent" ? " · read by an agent" : ""}</span></td>
                    <td className="mono">{t.paths.join(", ")}</td>
                  </>
                ) : (
                  // An older agent reports what the files declare, not where they are.
                  <td colSpan={2} className="muted">Read by an agent (<code>driftwatch agent --compose-git …</code>) that does not say where; its repository and files are set on that agent.</td>
                )}
                <td>
                  {t.last_commit ? <code>{t.last_commit.slice(0, 10)}</code> : <span className="muted">not read yet</span>}
                  {t.last_error ? <p className="alert compact" role="note">{t.last_error}</p> : null}
                </td>
                <td><When at={t.last_report_at} now={now} /> <span className="sub">{t.workloads} services</span></td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      {hasRole(ctx.actor, "member") ? (
        <section className="card" aria-labelledby="add-compose-h">
          <h2 id="add-compose-h">Add a Compose-in-Git target</h2>
          <ComposeTargetForm environments={envs.items.map((e) => e.name)} />
        </section>
      ) : (
        <p className="hint">Members and higher can add targets.</p>
      )}
    </SettingsFrame>
  );
}
