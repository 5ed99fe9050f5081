// A step of first-run setup: when the server can read a Docker socket, offer to watch that host as an
// environment of the new workspace; else say so, and where the agent command is.
import { withFlash } from "@/components/settings/flash";
import { AppError } from "@/lib/domain/errors";
import { getDockerHost, runDockerHostWatchesSoon } from "@/lib/server/docker-host";
import { getServerServices } from "@/lib/server/services";
import { watchDockerHost } from "@/lib/services/docker-host/watch";

export async function DockerHostSetupStep() {
  const probe = await getDockerHost().probe();
  if (!probe.readable) {
    return <p className="hint" data-testid="setup-docker-host">Driftwatch cannot read a Docker socket here: {probe.reason} After setup, Settings › Agents gives the command for an agent beside your Docker host.</p>;
  }
  return (
    <fieldset className="stack" data-testid="setup-docker-host">
      <legend>Watch this Docker host</legend>
      <label className="checkbox">
        <input type="checkbox" name="watch_docker_host" /> Report what runs on <strong>{probe.engine.name}</strong>{probe.engine.swarmManager ? " (and its Swarm services)" : ""} every minute, from this server: no agent to run.
      </label>
      <label>Environment <span className="hint">an environment of the new workspace, created now</span>
        <input name="docker_environment" defaultValue="production" pattern="[A-Za-z0-9][A-Za-z0-9._:@+\-]{0,199}" title="Letters, digits and . _ : @ + -" />
      </label>
    </fieldset>
  );
}

/**
 * After the workspace exists: watch the host when the step asked for it, as its owner. Where to go
 * next: the state on Settings › Agents, with the reason when it could not be done; null when not asked.
 */
export async function watchDockerHostAfterSetup(form: FormData, owner: { workspaceId: string; userId: string; email: string }): Promise<string | null> {
  if (form.get("watch_docker_host") !== "on") return null;
  const { db, config } = await getServerServices();
  const ctx = { db, config, now: new Date(), actor: { kind: "user" as const, userId: owner.userId, email: owner.email, workspaceId: owner.workspaceId, role: "owner" as const } };
  try {
    const w = await watchDockerHost({ ctx, input: { environment: form.get("docker_environment") ?? "production" }, host: getDockerHost(config) });
    runDockerHostWatchesSoon();
    return withFlash("/settings/agents", { ok: `Watching ${w.target} as ${w.environment}: its first report is on its way.` });
  } catch (err) {
    if (err instanceof AppError) return withFlash("/settings/agents", { error: `The workspace is ready, but watching this Docker host failed: ${err.message}` });
    throw err;
  }
}
