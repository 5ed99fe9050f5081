"use server";
// Agent keys: create (the value is shown once) and revoke. Admins only.
import { revalidatePath } from "next/cache";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { revokeAgentKey } from "@/lib/services/agent-keys/revoke";
import { redirectWithFlash, settingsAction } from "../settings-action";

export type CreateAgentKeyState = { value?: string; name?: string; error?: string };

export async function createAgentKeyAction(_prev: CreateAgentKeyState, form: FormData): Promise<CreateAgentKeyState> {
  const name = String(form.get("name") ?? "").trim();
  const result = await settingsAction({ role: "admin" }, ({ ctx }) => createAgentKey({ ctx, input: { name } }));
  if (!result.ok) return { error: result.message };
  revalidatePath("/settings/agents");
  return { value: result.value.value, name: result.value.name };
}

export async function revokeAgentKeyAction(form: FormData): Promise<void> {
  const name = String(form.get("name") ?? "");
  const id = String(form.get("id") ?? "");
  const result = await settingsAction({ role: "admin" }, async ({ ctx }) => {
    await revokeAgentKey({ ctx, input: { id } });
    return `Agent key ${name} revoked: reports signed with it are refused from now on.`;
  });
  redirectWithFlash("/settings/agents", result);
}
