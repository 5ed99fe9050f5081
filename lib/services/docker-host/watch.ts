// Watch the Docker host the server reads, as an environment of the workspace: the server then
// collects it every agent interval and records what runs (run-watches.ts). Admins only: it reads
// every container on the host.
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { upsertDockerHostWatch } from "@/lib/db/queries/docker-host/upsert-docker-host-watch";
import { createEnvironmentLast } from "@/lib/db/queries/environments/create-environment-last";
import { getEnvironmentId } from "@/lib/db/queries/environments/get-environment-id";
import { AppError, zodErrors } from "@/lib/domain/errors";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import type { DockerHost } from "./ports";
import { watchDockerHostSchema } from "./schemas";

export type WatchedDockerHost = { id: string; target: string; environment: string; engine: string; swarm: boolean; environment_created: boolean };

export async function watchDockerHost({ ctx, input, host }: { ctx: RequestCtx; input: unknown; host: DockerHost }): Promise<WatchedDockerHost> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const parsed = watchDockerHostSchema.safeParse(input);
  if (!parsed.success) throw new AppError("invalid_input", `Environment ${parsed.error.issues[0]!.message}.`, { errors: zodErrors(parsed.error) });
  const { environment } = parsed.data;
  const probe = await host.probe({ maxAgeMs: 0 });
  if (!probe.readable) throw new AppError("unavailable", `Driftwatch cannot read a Docker socket here: ${probe.reason}`);
  const { engine } = probe;
  const target = `docker@${engine.name}`;
  return ctx.db.$transaction(async (tx) => {
    const existing = await getEnvironmentId(tx, workspaceId, environment);
    const environmentId = existing ?? (await createEnvironmentLast(tx, workspaceId, environment)).id;
    const { id } = await upsertDockerHostWatch(tx, { workspaceId, environmentId, engineId: engine.id, engineName: engine.name, targetName: target, createdBy: actorLabel(ctx.actor), now: ctx.now });
    await createAuditEntry(tx, { workspaceId, actor: actorLabel(ctx.actor), action: "docker_host.watched", subject: id, data: { target, environment } });
    return { id, target, environment, engine: engine.name, swarm: engine.swarmManager, environment_created: existing === null };
  });
}
