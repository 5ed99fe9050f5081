"use server";
// Compose-in-Git targets: created through the same service as the API, with
// field errors from the AppError's pointers.
import { revalidatePath } from "next/cache";
import { createComposeTarget } from "@/lib/services/targets/create-compose";
import { createComposeTargetSchema } from "@/lib/services/targets/schemas";
import { FIELDS_NEED_FIXING, settingsAction } from "../settings-action";

export type ComposeFormState = { status: "idle" | "created" | "error"; message?: string; errors?: Record<string, string>; values?: Record<string, string>; at?: number };

export async function createComposeTargetAction(_prev: ComposeFormState, form: FormData): Promise<ComposeFormState> {
  const values = Object.fromEntries(["name", "environment", "repository_url", "branch", "paths"].map((k) => [k, String(form.get(k) ?? "").trim()]));
  const input = {
    ...(values.name ? { name: values.name } : {}),
    environment: values.environment,
    kind: "compose_git" as const,
    repository_url: values.repository_url,
    branch: values.branch || "main",
    paths: (values.paths ?? "").split(/[\n,]/).map((p) => p.trim()).filter(Boolean),
  };
  const result = await settingsAction({ schema: createComposeTargetSchema, input }, ({ ctx, input }) => createComposeTarget({ ctx, input }));
  if (!result.ok) {
    return {
      status: "error", message: result.errors.length ? FIELDS_NEED_FIXING : result.message, values, at: Date.now(),
      errors: Object.fromEntries(result.errors.map((e) => [e.pointer.split("/")[1] ?? "", e.detail])),
    };
  }
  revalidatePath("/settings/compose");
  return { status: "created", message: `Created ${result.value.name}. Driftwatch reads ${result.value.repository_url} within the minute.`, at: Date.now() };
}
