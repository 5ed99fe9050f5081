"use server";
// Server actions of the API tokens page; the services authorise (admin).
import { revalidatePath } from "next/cache";
import { createApiToken } from "@/lib/services/api-tokens/create";
import { revokeApiToken } from "@/lib/services/api-tokens/revoke";
import { settingsAction } from "../settings-action";

export type CreateTokenState = { value?: string; name?: string; error?: string };

export async function createTokenAction(_prev: CreateTokenState, formData: FormData): Promise<CreateTokenState> {
  const input = { name: formData.get("name") || "api", role: formData.get("role") };
  const result = await settingsAction({ role: "admin" }, ({ ctx }) => createApiToken({ ctx, input }));
  if (!result.ok) return { error: result.message };
  revalidatePath("/settings/tokens");
  return { value: result.value.value, name: result.value.name };
}

export async function revokeTokenAction(formData: FormData): Promise<void> {
  const id = String(formData.get("id"));
  // The page has no place for an error: a token already revoked or gone shows as it is.
  await settingsAction({ role: "admin" }, ({ ctx }) => revokeApiToken({ ctx, input: { id } }));
  revalidatePath("/settings/tokens");
}
