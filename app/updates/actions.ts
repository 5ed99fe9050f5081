"use server";
// Put an update off, or take that back: acknowledgements through the acks
// service, scoped to the line's service and environment.
import { redirect } from "next/navigation";
import { AppError } from "@/lib/domain/errors";
import { requirePageSession } from "@/lib/http/context";
import { createAck } from "@/lib/services/acks/create";
import { deleteAck } from "@/lib/services/acks/delete";

/** Back to the page the form was on (only same-site updates paths), with the outcome. */
function back(form: FormData, flash: { ok?: string; error?: string }): never {
  const raw = String(form.get("back") ?? "/updates");
  const url = new URL(raw.startsWith("/updates") ? raw : "/updates", "http://x");
  url.searchParams.delete("ok");
  url.searchParams.delete("error");
  if (flash.ok) url.searchParams.set("ok", flash.ok);
  if (flash.error) url.searchParams.set("error", flash.error);
  redirect(`${url.pathname}${url.search}`);
}

const CHOICES = {
  skip: { label: "until a newer release is out" },
  "1w": { label: "for a week", duration: "7d" },
  "30d": { label: "for 30 days", duration: "30d" },
} as const;

export async function putOffAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  // The pressed button's value: "<choice> <service> <environment> <target version>" (names hold no spaces).
  const [rawChoice = "", service = "", environment = "", target = ""] = String(form.get("put") ?? "").split(" ");
  const choice = rawChoice as keyof typeof CHOICES;
  if (!(choice in CHOICES) || !service || !environment) back(form, { error: "Choose how long to put it off." });
  try {
    if (choice === "skip") {
      // The line stays quiet until a release newer than the skipped one is out.
      await createAck({ ctx, input: { service, environment, kind: "release", skip_version: target } });
    } else {
      await createAck({ ctx, input: { service, environment, kind: "drift", duration: CHOICES[choice].duration } });
    }
  } catch (err) {
    if (err instanceof AppError) back(form, { error: err.message });
    throw err;
  }
  back(form, { ok: choice === "skip" ? `Skipped ${target} for ${service} in ${environment}.` : `Put ${service} in ${environment} off ${CHOICES[choice].label}.` });
}

export async function undoPutOffAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  const [id = "", service = "The update"] = String(form.get("undo") ?? "").split(" ");
  try {
    await deleteAck({ ctx, input: { id } });
  } catch (err) {
    if (err instanceof AppError) back(form, { error: err.message });
    throw err;
  }
  back(form, { ok: `${service} is back on the list.` });
}
