// Checks on a schema-valid policy that need the forge allow-list and the
// version engine: a forge value may name only allowed hosts, and tag_filter
// must be a valid RE2 expression (linear time: no policy can hang the server).
import type { FieldError } from "@/lib/domain/errors";
import { checkForgeReference } from "@/lib/domain/forge-hosts";
import type { Policy } from "@/lib/domain/policy";
import { compileTagFilter } from "@/lib/domain/versions";

export function extraPolicyChecks(policy: Policy, opts: { gitlabUrl?: string }): FieldError[] {
  const errors: FieldError[] = [];
  for (const kind of ["github", "gitlab"] as const) {
    const value = policy[kind];
    if (value === undefined) continue;
    const check = checkForgeReference(kind, value, { gitlabUrl: opts.gitlabUrl });
    if (!check.ok) errors.push({ pointer: `/${kind}`, detail: check.error });
  }
  if (policy.tag_filter !== undefined) {
    const compiled = compileTagFilter(policy.tag_filter);
    if (!compiled.ok) errors.push({ pointer: "/tag_filter", detail: compiled.error });
  }
  return errors;
}
