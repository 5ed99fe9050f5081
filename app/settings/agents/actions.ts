"use server";
// Agent keys: create (the value is shown once) and revoke. Admins only; the
// services check.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { withFlash } from "@/components/settings/flash";
import { AppError } from "@/lib/domain/errors";
import { requirePageSession } from "@/lib/server/session";
import { revokeAgentKey } from "@/lib/services/agent-keys/revoke";
import { createAgentKey } from "@/lib/services/agent-keys/create";

export type CreateAgentKeyState = { value?: string; name?: string; error?: string };

export async function createAgentKeyAction(_prev: CreateAgentKeyState, form: FormData): Promise<CreateAgentKeyState> {
  const { ctx } = await requirePageSession();
  try {
    const created = await createAgentKey({ ctx, input: { name: String(form.get("name") ?? "").trim() } });
    revalidatePath("/settings/agents");
    return { value: created.value, name: created.name };
  } catch (err) {
    if (err instanceof AppError) return { error: err.message };
    throw err;
  }
}

export async function revokeAgentKeyAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  const name = String(form.get("name") ?? "");
  let to = withFlash("/settings/agents", { ok: `Agent key ${name} revoked: reports signed with it are refused from now on.` });
  try {
    await revokeAgentKey({ ctx, input: { id: String(form.get("id") ?? "") } });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    to = withFlash("/settings/agents", { error: err.message });
  }
  redirect(to);
}
