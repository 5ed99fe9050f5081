// "This Docker host": when the server can read a Docker socket, watch it as an environment (the
// server runs the agent's collector itself); its state; otherwise why not, and the agent command.
import { When } from "@/components/ui/format";
import type { DockerHostWatchOut } from "@/lib/services/docker-host/list";
import type { DockerHostProbe } from "@/lib/services/docker-host/ports";
import { stopWatchingDockerHostAction, watchDockerHostAction } from "./docker-host-actions";

const STATE: Record<DockerHostWatchOut["state"], { label: string; pill: string }> = {
  reporting: { label: "reporting", pill: "ok" },
  waiting: { label: "waiting for the first run", pill: "info" },
  failing: { label: "failing", pill: "bad" },
  quiet: { label: "quiet: no run lately", pill: "warn" },
  stopped: { label: "stopped", pill: "neutral" },
};

export function DockerHostSection({ probe, watches, environments, isAdmin, baseUrl, now }: {
  probe: DockerHostProbe;
  watches: DockerHostWatchOut[];
  environments: string[];
  isAdmin: boolean;
  baseUrl: string;
  now: Date;
}) {
  const watchingHere = probe.readable ? watches.find((w) => w.engine_id === probe.engine.id && w.state !== "stopped") : undefined;
  return (
    <section aria-labelledby="docker-host-h">
      <h2 id="docker-host-h">This Docker host</h2>
      {probe.readable ? (
        <p>
          Driftwatch can read the Docker Engine at <code>{probe.address}</code>: <strong>{probe.engine.name}</strong>
          {probe.engine.swarmManager ? ", a Swarm manager (its services are reported too)" : ""}. The server can watch it itself, with the agent&apos;s collector: no key, no second process.
        </p>
      ) : (
        <div className="grid">
          <p>Driftwatch cannot read a Docker socket here: {probe.reason}</p>
          <p>Run an agent beside your Docker host instead, with an agent key from above:</p>
          <pre className="code" tabIndex={0}>{`npx driftwatch agent --url ${baseUrl} --key <agent key> --environment production`}</pre>
        </div>
      )}
      {probe.readable && !watchingHere ? (
        isAdmin ? (
          <form action={watchDockerHostAction} className="inline-form" aria-label="Watch this Docker host">
            <label>
              Environment
              <input name="environment" list="docker-host-environments" required defaultValue={environments.includes("production") ? "production" : (environments[0] ?? "production")}
                pattern="[A-Za-z0-9][A-Za-z0-9._:@+\-]{0,199}" title="An existing environment, or a new name: letters, digits and . _ : @ + -" />
              <datalist id="docker-host-environments">{environments.map((e) => <option key={e} value={e} />)}</datalist>
            </label>
            <button type="submit" className="primary">Watch this Docker host</button>
          </form>
        ) : (
          <p className="hint">Owners and admins can watch this host.</p>
        )
      ) : null}
      {watches.length ? (
        <table className="data">
          <caption className="sr">Docker hosts the server watches</caption>
          <thead><tr><th scope="col">Target</th><th scope="col">Environment</th><th scope="col">State</th><th scope="col">Last report</th><th scope="col">Workloads</th><th scope="col">Last error</th><th scope="col"><span className="sr">Actions</span></th></tr></thead>
          <tbody>
            {watches.map((w) => (
              <tr key={w.id} data-testid="docker-host-watch">
                <th scope="row">{w.target}</th>
                <td>{w.environment}</td>
                <td><span className={`pill ${STATE[w.state].pill}`}>{STATE[w.state].label}</span></td>
                <td><When at={w.last_report_at} now={now} /></td>
                <td>{w.workloads ?? <span className="muted">—</span>}</td>
                <td title={w.last_error ?? undefined}>{w.last_error ?? <span className="muted">none</span>}</td>
                <td>
                  {isAdmin && w.state !== "stopped" ? (
                    <form action={stopWatchingDockerHostAction}>
                      <input type="hidden" name="id" value={w.id} />
                      <button type="submit" className="danger small" aria-label={`Stop watching ${w.target}`}>Stop watching</button>
                    </form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
