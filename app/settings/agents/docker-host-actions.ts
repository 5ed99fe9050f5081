"use server";
// Watch the Docker host the server reads, or stop. Admins only (the service checks too).
import { revalidatePath } from "next/cache";
import { getDockerHost, runDockerHostWatchesSoon } from "@/lib/server/docker-host";
import { stopWatchingDockerHost } from "@/lib/services/docker-host/stop";
import { watchDockerHost } from "@/lib/services/docker-host/watch";
import { redirectWithFlash, settingsAction } from "../settings-action";

export async function watchDockerHostAction(form: FormData): Promise<void> {
  const environment = String(form.get("environment") ?? "");
  const result = await settingsAction({ role: "admin" }, async ({ ctx }) => {
    const w = await watchDockerHost({ ctx, input: { environment }, host: getDockerHost() });
    runDockerHostWatchesSoon();
    return `Watching ${w.target} as ${w.environment}${w.environment_created ? ", a new environment at the end of the pipeline" : ""}. The server reports it every minute.`;
  });
  revalidatePath("/settings/agents");
  redirectWithFlash("/settings/agents", result);
}

export async function stopWatchingDockerHostAction(form: FormData): Promise<void> {
  const id = String(form.get("id") ?? "");
  const result = await settingsAction({ role: "admin" }, async ({ ctx }) => {
    const { target } = await stopWatchingDockerHost({ ctx, input: { id } });
    return `Stopped watching ${target}. What it reported stays; its target goes quiet.`;
  });
  revalidatePath("/settings/agents");
  redirectWithFlash("/settings/agents", result);
}
