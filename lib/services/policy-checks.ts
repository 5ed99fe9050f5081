// Checks on a schema-valid policy that need the version engine and the forge
// allow-list.
import type { FieldError } from "@/lib/domain/errors";
import type { Policy } from "@/lib/domain/policy";

export function extraPolicyChecks(_policy: Policy, _opts: { gitlabUrl?: string }): FieldError[] {
  return [];
}
