// The policy form as an update: every field is sent, so the service's own
// policy becomes exactly what the form shows; an empty field is removed.
// Errors come back keyed by field, from the AppError's JSON pointers.
import type { z } from "zod";
import type { updateServiceSchema } from "@/lib/services/services/schemas";
import type { FieldError } from "@/lib/domain/errors";
import { DRIFT_KINDS } from "@/lib/domain/policy";

export type PolicyFormState = {
  status: "idle" | "saved" | "error";
  message?: string;
  errors?: Record<string, string>;
  /** What was sent, shown again after an error (React resets a form after its action). */
  values?: Record<string, string>;
  at?: number;
};

export const TEXT_FIELDS = ["tag_filter", "github", "gitlab", "release_tag_prefix", "changelog", "eol", "min_release_age"] as const;

type Update = z.infer<typeof updateServiceSchema>;

const text = (form: FormData, key: string): string => String(form.get(key) ?? "").trim();

export function policyUpdateFromForm(form: FormData): { input: Update; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const policy: Record<string, unknown> = {};
  policy.track = text(form, "track") || null;
  const pin = text(form, "pin_major");
  if (pin === "") policy.pin_major = null;
  else if (/^\d{1,7}$/.test(pin)) policy.pin_major = Number(pin);
  else errors.push({ pointer: "/policy/pin_major", detail: "must be a whole number, such as 2" });
  policy.prerelease = form.get("prerelease") === "on";
  for (const key of TEXT_FIELDS) policy[key] = text(form, key) || null;
  const delays: Record<string, string> = {};
  for (const kind of DRIFT_KINDS) {
    const value = text(form, `drift_alert_after.${kind}`);
    if (value) delays[kind] = value;
  }
  policy.drift_alert_after = Object.keys(delays).length ? delays : null;
  const team = text(form, "team");
  return { input: { team: team || null, policy }, errors };
}

/** `/policy/drift_alert_after/env` → `drift_alert_after.env`; `/team` → `team`. */
export function fieldOf(pointer: string): string {
  return pointer.replace(/^\/policy\//, "/").replace(/^\//, "").split("/").join(".");
}

export function errorsByField(errors: readonly FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) out[fieldOf(e.pointer)] ??= e.detail;
  return out;
}

/** The form's fields as sent, to fill the form again after an error. */
export function submittedValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && !key.startsWith("$")) out[key] = value;
  if (!form.has("prerelease")) out.prerelease = "";
  return out;
}
