"use server";
// Notification rules through the other engineers' services: create, switch on
// or off, delete, and a test send straight to the destination.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { withFlash } from "@/components/settings/flash";
import { createRuleSchema } from "@/lib/services/notification-rules/schemas";
import { AppError } from "@/lib/domain/errors";
import { zodErrors } from "@/lib/domain/errors";
import { requirePageSession } from "@/lib/server/session";
import { createRule } from "@/lib/services/notification-rules/create";
import { deleteRule } from "@/lib/services/notification-rules/delete";
import { updateRule } from "@/lib/services/notification-rules/update";
import { testSendRule } from "@/lib/services/notification-rules/test-send";

const PATH = "/settings/notifications";

export type RuleFormState = { status: "idle" | "created" | "error"; message?: string; errors?: Record<string, string>; values?: Record<string, string | string[]>; at?: number };

const list = (raw: string) => raw.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);

export async function createRuleAction(_prev: RuleFormState, form: FormData): Promise<RuleFormState> {
  const { ctx } = await requirePageSession();
  const get = (k: string) => String(form.get(k) ?? "").trim();
  const channel = get("channel");
  const values: Record<string, string | string[]> = {
    name: get("name"), channel, url: get("url"), secret: "", to: get("to"), services: get("services"), environments: get("environments"), teams: get("teams"),
    events: form.getAll("events").map(String), kinds: form.getAll("kinds").map(String),
  };
  const config = channel === "email" ? { to: list(get("to")) } : channel === "webhook" ? { url: get("url"), secret: get("secret") } : { url: get("url") };
  const input = {
    name: get("name"), channel, config,
    events: values.events, kinds: values.kinds,
    services: list(get("services")), environments: list(get("environments")), teams: list(get("teams")),
    allow_private: form.get("allow_private") === "on",
  };
  const fail = (message: string, errors: { pointer: string; detail: string }[]): RuleFormState => ({
    status: "error", message, values, at: Date.now(),
    errors: Object.fromEntries(errors.map((e) => [e.pointer.replace(/^\/config\//, "").replace(/^\//, "").split("/")[0] ?? "", e.detail])),
  });
  const parsed = createRuleSchema.safeParse(input);
  if (!parsed.success) return fail("Some fields need fixing.", zodErrors(parsed.error));
  try {
    const rule = await createRule({ ctx, input: parsed.data });
    revalidatePath(PATH);
    return { status: "created", message: `Rule “${rule.name}” created. Send a test to check the destination.`, at: Date.now() };
  } catch (err) {
    if (err instanceof AppError) return fail(err.errors?.length ? `${err.message} Some fields need fixing.` : err.message, err.errors ?? []);
    throw err;
  }
}

export type TestSendState = { status: "idle" | "delivered" | "failed"; message?: string; at?: number };

export async function testSendAction(_prev: TestSendState, form: FormData): Promise<TestSendState> {
  const { ctx } = await requirePageSession();
  try {
    const result = await testSendRule({ ctx, input: { id: String(form.get("id") ?? "") } });
    if (result.delivered) return { status: "delivered", message: result.warning ? `Delivered, with a warning: ${result.warning}` : "Test notification delivered.", at: Date.now() };
    return { status: "failed", message: `Not delivered: ${result.error ?? "unknown error"}`, at: Date.now() };
  } catch (err) {
    if (err instanceof AppError) return { status: "failed", message: err.message, at: Date.now() };
    throw err;
  }
}

async function attempt(run: () => Promise<string>): Promise<never> {
  let to: string;
  try {
    to = withFlash(PATH, { ok: await run() });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    to = withFlash(PATH, { error: err.message });
  }
  redirect(to);
}

export async function toggleRuleAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  const enabled = form.get("enabled") === "true";
  await attempt(async () => {
    const rule = await updateRule({ ctx, input: { id: String(form.get("id") ?? ""), enabled } });
    return `Rule “${rule.name}” ${enabled ? "switched on" : "switched off"}.`;
  });
}

export async function deleteRuleAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  await attempt(async () => {
    await deleteRule({ ctx, input: { id: String(form.get("id") ?? "") } });
    return `Rule “${String(form.get("name") ?? "")}” deleted.`;
  });
}
