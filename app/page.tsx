import { AppShell } from "@/components/app-shell";
import { requirePageSession } from "@/lib/server/session";
import { listEnvironments } from "@/lib/services/environments";
import { listServices } from "@/lib/services/services";

export const dynamic = "force-dynamic";

export default async function MatrixPage() {
  const { ctx, workspaceName } = await requirePageSession();
  const [envs, services] = await Promise.all([listEnvironments({ ctx }), listServices({ ctx })]);
  return (
    <AppShell current="matrix" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Matrix</h1>
          <p className="muted">{services.items.length} services across {envs.items.length} environments.</p>
        </div>
      </div>
      {services.items.length === 0 ? (
        <div className="card">
          <h2>No services yet</h2>
          <p>Run an agent next to your orchestrator to report what runs. Create an agent key with <code>driftwatch agent create --workspace {workspaceName} --name edge-1</code>, then start <code>driftwatch agent --url … --key …</code>.</p>
        </div>
      ) : (
        <table className="data">
          <caption className="skip-link">Services</caption>
          <thead><tr><th scope="col">Service</th><th scope="col">Team</th><th scope="col">Repository</th></tr></thead>
          <tbody>
            {services.items.map((s) => (
              <tr key={s.name}><td>{s.name}</td><td>{s.team ?? "—"}</td><td className="mono">{s.repository ?? "—"}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </AppShell>
  );
}
