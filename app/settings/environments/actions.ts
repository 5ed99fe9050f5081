"use server";
// Environments: pipeline order and the production flag, through the same
// services as the API. Outcomes travel in the URL (see components/settings/flash).
import { AppError } from "@/lib/domain/errors";
import { createEnvironment } from "@/lib/services/environments/create";
import { listEnvironments } from "@/lib/services/environments/list";
import { updateEnvironment } from "@/lib/services/environments/update";
import { gateSettingsInput } from "@/lib/services/gate/schemas";
import { redirectWithFlash, settingsAction, type ActionResult } from "../settings-action";

const PATH = "/settings/environments";

function back(result: ActionResult<string>): never {
  redirectWithFlash(PATH, result, (r) => (r.errors[0] ? `${r.message} (${r.errors[0].detail})` : r.message));
}

export async function moveEnvironmentAction(form: FormData): Promise<void> {
  const name = String(form.get("name") ?? "");
  const step = form.get("direction") === "up" ? -1 : 1;
  back(await settingsAction({}, async ({ ctx }) => {
    const { items } = await listEnvironments({ ctx });
    const from = items.findIndex((e) => e.name === name);
    const to = from + step;
    if (from < 0) throw new AppError("not_found", `Environment ${name} was not found.`);
    if (to < 0 || to >= items.length) return `${name} is already ${step < 0 ? "first" : "last"}.`;
    const order = [...items];
    [order[from], order[to]] = [order[to]!, order[from]!];
    // Renumber in steps of ten, touching only the environments whose position changes.
    for (const [i, env] of order.entries()) {
      const position = (i + 1) * 10;
      if (env.position !== position) await updateEnvironment({ ctx, input: { name: env.name, position } });
    }
    return `Moved ${name} ${step < 0 ? "up" : "down"}.`;
  }));
}

export async function setPositionAction(form: FormData): Promise<void> {
  const name = String(form.get("name") ?? "");
  const raw = String(form.get("position") ?? "").trim();
  back(await settingsAction({}, async ({ ctx }) => {
    if (!/^\d{1,5}$/.test(raw) || Number(raw) > 10_000) throw new AppError("invalid_input", "The position must be a whole number from 0 to 10000.");
    await updateEnvironment({ ctx, input: { name, position: Number(raw) } });
    return `${name} is now at position ${Number(raw)}.`;
  }));
}

export async function setProductionAction(form: FormData): Promise<void> {
  const name = String(form.get("name") ?? "");
  const production = form.get("production") === "true";
  back(await settingsAction({}, async ({ ctx }) => {
    await updateEnvironment({ ctx, input: { name, production } });
    return production ? `${name} is marked as production.` : `${name} is no longer marked as production.`;
  }));
}

export async function createEnvironmentAction(form: FormData): Promise<void> {
  const name = String(form.get("name") ?? "").trim();
  const raw = String(form.get("position") ?? "").trim();
  back(await settingsAction({}, async ({ ctx }) => {
    if (!/^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,99}$/.test(name)) throw new AppError("invalid_input", "The name must start with a letter or digit and use only letters, digits and . _ : @ + -.");
    const { items } = await listEnvironments({ ctx });
    const position = raw === "" ? (items.at(-1)?.position ?? 0) + 10 : Number(raw);
    if (!Number.isInteger(position) || position < 0 || position > 10_000) throw new AppError("invalid_input", "The position must be a whole number from 0 to 10000.");
    await createEnvironment({ ctx, input: { name, position, production: form.get("production") === "on" } });
    return `Created ${name}.`;
  }));
}

/** Admins: the environment's promotion gate (mode, soak, end of life, unknown services and versions). */
export async function setGateAction(form: FormData): Promise<void> {
  const name = String(form.get("name") ?? "");
  const input = {
    mode: String(form.get("mode") ?? ""),
    soak: String(form.get("soak") ?? "").trim() || "0s",
    refuse_eol: form.get("refuse_eol") === "on",
    unknown: String(form.get("unknown") ?? ""),
  };
  back(await settingsAction({ role: "admin", schema: gateSettingsInput, input }, async ({ ctx, input: gate }) => {
    const out = await updateEnvironment({ ctx, input: { name, gate } });
    return `The gate of ${name} is ${out.gate.mode}${out.gate.mode === "off" ? "" : `, soak ${out.gate.soak}`}.`;
  }));
}
