"use server";
// Server actions of the API tokens page; the services authorise (admin).
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/domain/errors";
import { requirePageSession } from "@/lib/server/session";
import { createApiToken } from "@/lib/services/api-tokens/create";
import { revokeApiToken } from "@/lib/services/api-tokens/revoke";

export type CreateTokenState = { value?: string; name?: string; error?: string };

export async function createTokenAction(_prev: CreateTokenState, formData: FormData): Promise<CreateTokenState> {
  const { ctx } = await requirePageSession();
  try {
    const created = await createApiToken({ ctx, input: { name: formData.get("name") || "api", role: formData.get("role") } });
    revalidatePath("/settings/tokens");
    return { value: created.value, name: created.name };
  } catch (err) {
    if (err instanceof AppError) return { error: err.message };
    throw err;
  }
}

export async function revokeTokenAction(formData: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  await revokeApiToken({ ctx, input: { id: String(formData.get("id")) } });
  revalidatePath("/settings/tokens");
}
