"use server";
// Environments: pipeline order and the production flag, through the same
// services as the API. Outcomes travel in the URL (see components/settings/flash).
import { redirect } from "next/navigation";
import { withFlash } from "@/components/settings/flash";
import { AppError } from "@/lib/domain/errors";
import { requirePageSession } from "@/lib/server/session";
import { createEnvironment } from "@/lib/services/environments/create";
import { listEnvironments } from "@/lib/services/environments/list";
import { updateEnvironment } from "@/lib/services/environments/update";

const PATH = "/settings/environments";

async function attempt(run: () => Promise<string>): Promise<never> {
  let to: string;
  try {
    to = withFlash(PATH, { ok: await run() });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    to = withFlash(PATH, { error: err.errors?.[0] ? `${err.message} (${err.errors[0].detail})` : err.message });
  }
  redirect(to);
}

export async function moveEnvironmentAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  const name = String(form.get("name") ?? "");
  const step = form.get("direction") === "up" ? -1 : 1;
  await attempt(async () => {
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
  });
}

export async function setPositionAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  const name = String(form.get("name") ?? "");
  const raw = String(form.get("position") ?? "").trim();
  await attempt(async () => {
    if (!/^\d{1,5}$/.test(raw) || Number(raw) > 10_000) throw new AppError("invalid_input", "The position must be a whole number from 0 to 10000.");
    await updateEnvironment({ ctx, input: { name, position: Number(raw) } });
    return `${name} is now at position ${Number(raw)}.`;
  });
}

export async function setProductionAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  const name = String(form.get("name") ?? "");
  const production = form.get("production") === "true";
  await attempt(async () => {
    await updateEnvironment({ ctx, input: { name, production } });
    return production ? `${name} is marked as production.` : `${name} is no longer marked as production.`;
  });
}

export async function createEnvironmentAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  const name = String(form.get("name") ?? "").trim();
  const raw = String(form.get("position") ?? "").trim();
  await attempt(async () => {
    if (!/^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,99}$/.test(name)) throw new AppError("invalid_input", "The name must start with a letter or digit and use only letters, digits and . _ : @ + -.");
    const { items } = await listEnvironments({ ctx });
    const position = raw === "" ? (items.at(-1)?.position ?? 0) + 10 : Number(raw);
    if (!Number.isInteger(position) || position < 0 || position > 10_000) throw new AppError("invalid_input", "The position must be a whole number from 0 to 10000.");
    await createEnvironment({ ctx, input: { name, position, production: form.get("production") === "on" } });
    return `Created ${name}.`;
  });
}
