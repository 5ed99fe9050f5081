"use server";
// Notification rules through the same services as the API: create, switch on
// or off, delete, and a test send straight to the destination.
import { revalidatePath } from "next/cache";
import { channelDefinition, isChannel } from "@/lib/adapters/channels";
import { createRule } from "@/lib/services/notification-rules/create";
import { deleteRule } from "@/lib/services/notification-rules/delete";
import { createRuleSchema } from "@/lib/services/notification-rules/schemas";
import { testSendRule } from "@/lib/services/notification-rules/test-send";
import { updateRule } from "@/lib/services/notification-rules/update";
import { FIELDS_NEED_FIXING, redirectWithFlash, settingsAction } from "../settings-action";

const PATH = "/settings/notifications";

export type RuleFormState = { status: "idle" | "created" | "error"; message?: string; errors?: Record<string, string>; values?: Record<string, string | string[]>; at?: number };

const list = (raw: string) => raw.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);

export async function createRuleAction(_prev: RuleFormState, form: FormData): Promise<RuleFormState> {
  const get = (k: string) => String(form.get(k) ?? "").trim();
  const channel = get("channel");
  const fields = isChannel(channel) ? channelDefinition(channel).fields : [];
  const values: Record<string, string | string[]> = {
    name: get("name"), channel, services: get("services"), environments: get("environments"), teams: get("teams"),
    events: form.getAll("events").map(String), kinds: form.getAll("kinds").map(String),
    // Secrets are never sent back to the browser, even to refill the form.
    ...Object.fromEntries(fields.filter((f) => !f.secret || f.name === "url").map((f) => [`${channel}.${f.name}`, get(`${channel}.${f.name}`)])),
  };
  const config: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = get(`${channel}.${f.name}`);
    if (f.type === "checkbox") {
      if (raw === "on") config[f.name] = true;
    } else if (f.type === "list") config[f.name] = list(raw);
    else if (raw !== "" || !f.optional) config[f.name] = raw;
  }
  const input = {
    name: get("name"), channel, config,
    events: values.events, kinds: values.kinds,
    services: list(get("services")), environments: list(get("environments")), teams: list(get("teams")),
    allow_private: form.get("allow_private") === "on",
  };
  const result = await settingsAction({ schema: createRuleSchema, input }, ({ ctx, input }) => createRule({ ctx, input }));
  if (!result.ok) {
    const message = !result.invalidInput && result.errors.length ? `${result.message} ${FIELDS_NEED_FIXING}` : result.message;
    return {
      status: "error", message, values, at: Date.now(),
      errors: Object.fromEntries(result.errors.map((e) => [e.pointer.replace(/^\/config\//, "").replace(/^\//, "").split("/")[0] ?? "", e.detail])),
    };
  }
  revalidatePath(PATH);
  return { status: "created", message: `Rule “${result.value.name}” created. Send a test to check the destination.`, at: Date.now() };
}

export type TestSendState = { status: "idle" | "delivered" | "failed"; message?: string; at?: number };

export async function testSendAction(_prev: TestSendState, form: FormData): Promise<TestSendState> {
  const id = String(form.get("id") ?? "");
  const result = await settingsAction({}, ({ ctx }) => testSendRule({ ctx, input: { id } }));
  if (!result.ok) return { status: "failed", message: result.message, at: Date.now() };
  const sent = result.value;
  if (sent.delivered) return { status: "delivered", message: sent.warning ? `Delivered, with a warning: ${sent.warning}` : "Test notification delivered.", at: Date.now() };
  return { status: "failed", message: `Not delivered: ${sent.error ?? "unknown error"}`, at: Date.now() };
}

export async function toggleRuleAction(form: FormData): Promise<void> {
  const enabled = form.get("enabled") === "true";
  const id = String(form.get("id") ?? "");
  redirectWithFlash(PATH, await settingsAction({}, async ({ ctx }) => {
    const rule = await updateRule({ ctx, input: { id, enabled } });
    return `Rule “${rule.name}” ${enabled ? "switched on" : "switched off"}.`;
  }));
}

export async function deleteRuleAction(form: FormData): Promise<void> {
  const id = String(form.get("id") ?? "");
  redirectWithFlash(PATH, await settingsAction({}, async ({ ctx }) => {
    await deleteRule({ ctx, input: { id } });
    return `Rule “${String(form.get("name") ?? "")}” deleted.`;
  }));
}
