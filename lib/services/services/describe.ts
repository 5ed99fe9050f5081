// How a service is presented by the API and the pages: which repository is
// tracked and why, which policy applies and where it comes from, and where
// release dates and notes come from. Pure given the facts and the catalog.
import type { z } from "zod";
import type { serviceSchema } from "@/lib/services/services/schemas";
import type { ServiceFacts } from "@/lib/db/queries/services/list-service-facts";
import { DEFAULT_POLICY, type Policy } from "@/lib/domain/policy";
import { catalogFor, forgeFromLabel } from "./catalog-lookup";
import { upstreamStatusOf } from "../upstream/status";

export type ServiceOut = z.infer<typeof serviceSchema>;

/**
 * `newest` comes from the matrix (the running line's newest release); null where the caller has none.
 * `waiting`: releases the minimum release age holds back (listHeldByService); none where not given.
 */
export function describeService(facts: ServiceFacts, opts: { gitlabUrl?: string; now: Date; newest?: string | null; waiting?: readonly { version: string; until: Date }[] }): ServiceOut {
  const repository = facts.repository ?? facts.runningRepository;
  const own = (facts.policy ?? null) as Policy | null;
  const catalog = repository ? catalogFor(repository) : null;
  const policySource = own ? "service" : catalog?.policy ? "catalog" : "default";
  const policy: Record<string, unknown> = own ? { ...DEFAULT_POLICY, ...own } : catalog?.policy ? { ...DEFAULT_POLICY, ...catalog.policy } : { ...DEFAULT_POLICY };

  let release: ServiceOut["release_source"] = { kind: null, repository: null, from: null };
  if (own?.github) release = { kind: "github", repository: own.github, from: "policy" };
  else if (own?.gitlab) release = { kind: "gitlab", repository: own.gitlab, from: "policy" };
  else if (catalog?.github) release = { kind: "github", repository: catalog.github, from: "catalog" };
  else if (catalog?.gitlab) release = { kind: "gitlab", repository: catalog.gitlab, from: "catalog" };
  else if (facts.upstream?.sourceLabel && repository && !repository.startsWith("docker.io/library/")) {
    const forge = forgeFromLabel(facts.upstream.sourceLabel, opts.gitlabUrl);
    if (forge) release = { kind: forge.kind, repository: forge.repository, from: "image_label" };
  }

  return {
    name: facts.name,
    team: facts.team,
    application: facts.application,
    repository,
    repository_source: facts.repository ? "policy" : facts.runningRepository ? "image" : null,
    policy,
    policy_source: policySource,
    release_source: release,
    checked_by: facts.upstream?.checkedBy ?? null,
    last_check: { at: facts.upstream?.checkedAt?.toISOString() ?? null, error: facts.upstream?.lastError ?? null },
    upstream: { ...upstreamOut(repository, facts.upstream, opts.now, opts.newest ?? null), waiting: (opts.waiting ?? []).map((w) => ({ version: w.version, until: w.until.toISOString() })) },
  };
}

export function upstreamOut(repository: string | null, row: ServiceFacts["upstream"], now: Date, newest: string | null): Omit<ServiceOut["upstream"], "waiting"> {
  const status = upstreamStatusOf(row, now);
  return { repository, newest, checked_at: row?.checkedAt?.toISOString() ?? null, checked_by: row?.checkedBy ?? null, state: status.state, error: status.error };
}
