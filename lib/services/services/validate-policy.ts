// A policy as users send it → a valid Policy, or 422 with pointers under
// /policy. Checks the schema, the tag_filter syntax (RE2), and that forge
// values name only allowed hosts, before anything is stored or requested.
import { serviceKindOf } from "@/lib/domain/charts";
import { AppError, zodErrors, type FieldError } from "@/lib/domain/errors";
import { policySchema, type Policy } from "@/lib/domain/policy";
import { chartRepositoryRefusal } from "../upstream/chart-repositories";
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

/**
 * A `chart_repository` being set on `service`: 422 at /policy/chart_repository unless the service is a
 * Helm release's and the server may call the repository's host, rather than a check failing later.
 */
export function checkChartRepositorySetting(service: string, repository: string | null | undefined, config: { serverRegistries: readonly string[]; insecureRegistries: readonly string[] }): void {
  if (!repository) return;
  const detail = serviceKindOf(service) === "image"
    ? `${service} runs images; chart_repository belongs on a Helm release's service (chart:<release>)`
    : chartRepositoryRefusal(repository, config);
  if (detail) throw new AppError("invalid_input", detail, { errors: [{ pointer: "/policy/chart_repository", detail }] });
}
