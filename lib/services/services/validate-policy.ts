// A policy as users send it → a valid Policy, or 422 with pointers under
// /policy. Checks the schema, the tag_filter syntax (RE2), and that forge
// values name only allowed hosts, before anything is stored or requested.
import { AppError, zodErrors, type FieldError } from "@/lib/domain/errors";
import { policySchema, type Policy } from "@/lib/domain/policy";
import { extraPolicyChecks } from "./policy-checks";

export function validatePolicy(raw: unknown, opts: { gitlabUrl?: string; pointer?: string } = {}): Policy {
  const root = opts.pointer ?? "/policy";
  const parsed = policySchema.safeParse(raw);
  if (!parsed.success) {
    const errors = zodErrors(parsed.error).map((e) => ({ ...e, pointer: root + e.pointer }));
    throw new AppError("invalid_input", "The policy is invalid.", { errors });
  }
  const errors: FieldError[] = extraPolicyChecks(parsed.data, opts).map((e) => ({ ...e, pointer: root + e.pointer }));
  if (errors.length) throw new AppError("invalid_input", errors[0]!.detail, { errors });
  return parsed.data;
}
