"use server";
// Server actions of the service page. The services authorise (member) and
// validate; errors come back as field messages, never as a crash page.
import { revalidatePath } from "next/cache";
import { after } from "next/server";
import { updateServiceSchema } from "@/lib/services/services/schemas";
import { AppError } from "@/lib/domain/errors";
import { zodErrors } from "@/lib/domain/errors";
import { log } from "@/lib/log";
import { requirePageSession } from "@/lib/http/context";
import { getUpstreamClients } from "@/lib/server/upstream-clients";
import { updateService } from "@/lib/services/services/update";
import { checkRepository } from "@/lib/services/upstream/check-repository";
import { requestCheck } from "@/lib/services/upstream/request-check";
import { errorsByField, policyUpdateFromForm, submittedValues, type PolicyFormState } from "./policy-input";

const pathOf = (name: string) => `/services/${encodeURIComponent(name)}`;

export async function savePolicyAction(_prev: PolicyFormState, form: FormData): Promise<PolicyFormState> {
  const { ctx } = await requirePageSession();
  const name = String(form.get("service") ?? "");
  if (form.get("reset") === "1") {
    try {
      await updateService({ ctx, input: { name, policy: null } });
    } catch (err) {
      if (err instanceof AppError) return { status: "error", message: err.message, at: Date.now() };
      throw err;
    }
    revalidatePath(pathOf(name));
    return { status: "saved", message: "The service's own policy was removed; the catalog's or the default policy applies.", at: Date.now() };
  }
  const { input, errors } = policyUpdateFromForm(form);
  const values = submittedValues(form);
  if (errors.length) return { status: "error", message: "Some fields need fixing.", errors: errorsByField(errors), values, at: Date.now() };
  const parsed = updateServiceSchema.safeParse(input);
  if (!parsed.success) return { status: "error", message: "Some fields need fixing.", errors: errorsByField(zodErrors(parsed.error)), values, at: Date.now() };
  try {
    await updateService({ ctx, input: { name, ...parsed.data } });
  } catch (err) {
    if (err instanceof AppError) return { status: "error", message: err.errors?.length ? "Some fields need fixing." : err.message, errors: errorsByField(err.errors ?? []), values, at: Date.now() };
    throw err;
  }
  revalidatePath(pathOf(name));
  return { status: "saved", message: "Policy saved. The service is checked again within the minute.", at: Date.now() };
}

export type CheckState = { status: "idle" | "started" | "queued" | "error"; message?: string; at?: number };

export async function checkNowAction(_prev: CheckState, form: FormData): Promise<CheckState> {
  const { ctx } = await requirePageSession();
  const name = String(form.get("service") ?? "");
  try {
    const request = await requestCheck({ ctx, name });
    if (request.leased) {
      // As the API route does: answer at once, check in this process right after.
      after(() =>
        checkRepository({ db: ctx.db, config: ctx.config, clients: getUpstreamClients(ctx.config), now: ctx.now }, request.repository_id).catch((err: unknown) => log.warn(`manual check of ${request.repository} failed: ${String(err)}`)),
      );
    }
    revalidatePath(pathOf(name));
    if (request.checked_by === "agent") return { status: "queued", message: `${request.repository} is private: your agents check it on their next report.`, at: Date.now() };
    return { status: "started", message: request.leased ? `Checking ${request.repository} now. Reload in a few seconds for the result.` : `A check of ${request.repository} is already running.`, at: Date.now() };
  } catch (err) {
    if (err instanceof AppError) return { status: "error", message: err.message, at: Date.now() };
    throw err;
  }
}
