"use server";
// Compose-in-Git targets: created through the same service as the API, with
// field errors from the AppError's pointers.
import { revalidatePath } from "next/cache";
import { createComposeTargetSchema } from "@/lib/services/targets/schemas";
import { AppError } from "@/lib/domain/errors";
import { zodErrors } from "@/lib/domain/errors";
import { requirePageSession } from "@/lib/server/session";
import { createComposeTarget } from "@/lib/services/targets/create-compose";

export type ComposeFormState = { status: "idle" | "created" | "error"; message?: string; errors?: Record<string, string>; values?: Record<string, string>; at?: number };

export async function createComposeTargetAction(_prev: ComposeFormState, form: FormData): Promise<ComposeFormState> {
  const { ctx } = await requirePageSession();
  const values = Object.fromEntries(["name", "environment", "repository_url", "branch", "paths"].map((k) => [k, String(form.get(k) ?? "").trim()]));
  const input = {
    ...(values.name ? { name: values.name } : {}),
    environment: values.environment,
    kind: "compose_git" as const,
    repository_url: values.repository_url,
    branch: values.branch || "main",
    paths: (values.paths ?? "").split(/[\n,]/).map((p) => p.trim()).filter(Boolean),
  };
  const fail = (message: string, errors: { pointer: string; detail: string }[]): ComposeFormState => ({
    status: "error", message, values, at: Date.now(),
    errors: Object.fromEntries(errors.map((e) => [e.pointer.split("/")[1] ?? "", e.detail])),
  });
  const parsed = createComposeTargetSchema.safeParse(input);
  if (!parsed.success) return fail("Some fields need fixing.", zodErrors(parsed.error));
  try {
    const created = await createComposeTarget({ ctx, input: parsed.data });
    revalidatePath("/settings/compose");
    return { status: "created", message: `Created ${created.name}. Driftwatch reads ${created.repository_url} within the minute.`, at: Date.now() };
  } catch (err) {
    if (err instanceof AppError) return fail(err.errors?.length ? "Some fields need fixing." : err.message, err.errors ?? []);
    throw err;
  }
}
