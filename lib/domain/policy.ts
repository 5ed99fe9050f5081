// The per-service policy, with the API's field names. Pure: the
// regular expression is checked with RE2 syntax by lib/domain/versions.
import { z } from "zod";
import { parseChartRepository } from "./charts";
import { parseDuration } from "./duration";
import { TRACKS, type Track } from "./tracks";

export { TRACKS, type Track } from "./tracks";

export const DRIFT_KINDS = ["env", "upstream", "inconsistent", "declared", "eol"] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

const durationString = z
  .string()
  .max(32)
  .refine((v) => parseDuration(v) !== null, { message: "must be a duration such as 15m, 72h or 7d" });

const githubRepo = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { message: "must be owner/repo" });

/** `host/group[/subgroup…]/project`; the host is checked against the allow-list elsewhere. */
const gitlabProject = z
  .string()
  .max(300)
  .regex(/^[A-Za-z0-9.-]+(?::\d{1,5})?(?:\/[A-Za-z0-9_.-]+){2,}$/, {
    message: "must be host/group/project",
  });

const changelogTemplate = z
  .string()
  .max(500)
  .refine((v) => v.includes("{version}"), { message: "must contain the placeholder {version}" })
  .refine((v) => /^https?:\/\//.test(v), { message: "must be an http(s) URL" });

/** A Helm chart's repository: classic (`https://…`, plain http only for insecure hosts) or `oci://host/path`. */
const chartRepository = z
  .string()
  .max(500)
  .refine((v) => parseChartRepository(v) !== null, {
    message: "must be a chart repository: a classic one as https://host/path (where https://host/path/index.yaml is served; that address is taken too, and http:// for hosts in DRIFTWATCH_INSECURE_REGISTRIES) or an OCI one as oci://host/path",
  });

export const policySchema = z
  .object({
    track: z.enum(TRACKS).optional(),
    pin_major: z.number().int().min(0).max(1_000_000).optional(),
    tag_filter: z.string().min(1).max(500).optional(),
    prerelease: z.boolean().optional(),
    drift_alert_after: z.partialRecord(z.enum(DRIFT_KINDS), durationString).optional(),
    github: githubRepo.optional(),
    gitlab: gitlabProject.optional(),
    release_tag_prefix: z.string().max(100).optional(),
    changelog: changelogTemplate.optional(),
    eol: z
      .string()
      .max(100)
      .regex(/^[a-z0-9][a-z0-9._-]*$/, { message: "must be an endoflife.date product identifier or none" })
      .optional(),
    chart_repository: chartRepository.optional(),
    /** A release alerts only once it is this old (release-age.ts). */
    min_release_age: durationString.optional(),
  })
  .strict();

export type Policy = z.infer<typeof policySchema>;

/** A policy with every default applied, as the rules read it. */
export type EffectivePolicy = Policy & { track: Track; prerelease: boolean };

export const DEFAULT_POLICY: EffectivePolicy = { track: "patch", prerelease: false };

export function effectivePolicy(policy: Policy | null | undefined): EffectivePolicy {
  return { ...DEFAULT_POLICY, ...(policy ?? {}) };
}

/** PATCH semantics: merge the given fields; a field set to null is removed. */
export function mergePolicy(current: Policy | null, patch: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}
