// The demo workspace as the requests that fill it: agent reports (sixty days of
// deploys per target, then now), the teams and end-of-life products of the
// services, and the acknowledgements. Shared by `driftwatch demo`, which sends
// them over HTTP, and the server's "Try the demo", which calls the same use cases.
import { createHash } from "node:crypto";
import type { AgentReportInput } from "../agent-report";
import {
  DECLARED_AHEAD, DECLARED_IN_STAGING, DEMO_ENVIRONMENTS, DEMO_SERVICES, DEMO_TARGETS, demoForgeOf, deploysOn, runningAt, type Deploy,
} from "./dataset";

export { DEMO_ENVIRONMENTS, DEMO_SERVICES };

export const DEMO_WORKSPACE = "demo";
export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "driftwatch-demo";
/** Without a registry, images are named under a host nobody answers: only the agent's recorded look-ups count. */
export const RECORDED_HOST = "registry.demo.invalid";

export type DemoPlanInput = {
  /** host[:port] the images are named under. */
  imageHost: string;
  digestOf: (repository: string, tag: string) => string;
  /** Without a registry: the tags the agent "looked up", sent with its last reports. */
  recordedTags: boolean;
  /** ms since the epoch. */
  now: number;
};

/** The digest a demo image has where no registry holds it: stable, so a second fill repeats the first. */
export function demoImageDigest(repository: string, tag: string): string {
  return `sha256:${createHash("sha256").update(`driftwatch demo ${repository}:${tag}`).digest("hex")}`;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** One target's reports, oldest first: one a day on which something changed there, and one now. */
export function demoReportsFor(input: DemoPlanInput, target: (typeof DEMO_TARGETS)[number]): AgentReportInput[] {
  const deploys = new Map(DEMO_SERVICES.map((s) => [s.name, deploysOn(s, target, input.now)] as const));
  const days = new Set<number>();
  for (const list of deploys.values()) for (const d of list) days.add(Math.floor((input.now - d.at) / DAY));
  const observedTimes = [...days]
    .sort((a, b) => b - a)
    .map((daysAgo) => Math.max(...[...deploys.values()].flat().filter((d) => Math.floor((input.now - d.at) / DAY) === daysAgo).map((d) => d.at)) + 60_000)
    .filter((t) => t < input.now);
  observedTimes.push(input.now);
  return observedTimes.map((observedAt, i) => {
    const isLast = i === observedTimes.length - 1;
    const workloads = DEMO_SERVICES.flatMap((service) => {
      const running: Deploy | null = runningAt(deploys.get(service.name)!, observedAt);
      if (!running) return [];
      return [{
        service: service.name,
        container: service.name,
        main: true,
        image: `${input.imageHost}/${service.repository}:${running.version}`,
        digest: input.digestOf(service.repository, running.version),
        platform_digest: null,
        platform: "linux/amd64",
        since: iso(running.at),
      }];
    });
    const registryResults = input.recordedTags && isLast
      ? DEMO_SERVICES.map((s) => ({
          repository: `${input.imageHost}/${s.repository}`,
          tags: s.releases.map(([v]) => v),
          digests: s.releases.map(([v]) => ({ tag: v, digest: input.digestOf(s.repository, v) })),
          resolved: [],
          error: null,
        }))
      : [];
    return {
      environment: target.environment,
      target: { name: target.name, kind: target.kind },
      observed_at: iso(observedAt),
      workloads,
      registry_results: registryResults,
    };
  });
}

/** Every target's reports; each target's must be sent in order, targets side by side. */
export function demoReports(input: DemoPlanInput): AgentReportInput[][] {
  return DEMO_TARGETS.map((t) => demoReportsFor(input, t));
}

/** What staging's Compose file declares: payments' next release is declared but not rolled out yet. */
export function demoDeclarations(input: DemoPlanInput): { service: string; image: string }[] {
  const staging = DEMO_TARGETS.find((t) => t.environment === "staging")!;
  return DECLARED_IN_STAGING.map((name) => {
    const service = DEMO_SERVICES.find((s) => s.name === name)!;
    const version = DECLARED_AHEAD[name] ?? runningAt(deploysOn(service, staging, input.now), input.now)!.version;
    return { service: name, image: `${input.imageHost}/${service.repository}:${version}` };
  });
}

type DemoPolicy = { eol?: string; github?: string; release_tag_prefix?: string };

/**
 * Teams and end-of-life products, as PATCH /api/v1/services/{name} bodies; with `forge`, also where
 * the releases are published (`driftwatch demo` answers for GitHub on loopback with their dates).
 */
export function demoServiceUpdates(opts: { forge?: boolean } = {}): { name: string; team: string; policy?: DemoPolicy }[] {
  return DEMO_SERVICES.map((s) => {
    const forge = opts.forge ? demoForgeOf(s) : null;
    const policy: DemoPolicy = { ...(s.eol ? { eol: s.eol } : {}), ...(forge ? { github: forge.github, release_tag_prefix: forge.prefix } : {}) };
    return { name: s.name, team: s.team, ...(Object.keys(policy).length ? { policy } : {}) };
  });
}

export type DemoGithubRelease = { id: number; tag_name: string; name: string; published_at: string; created_at: string; html_url: string; prerelease: boolean; draft: boolean };

/**
 * The demo's releases as GitHub's REST API lists them (GET /repos/{owner}/{repo}/releases), newest
 * first, published when the dataset says each came out before `now`: recorded-shaped release data.
 */
export function demoGithubReleases(now: number): Map<string, DemoGithubRelease[]> {
  const out = new Map<string, DemoGithubRelease[]>();
  let id = 180_000_000;
  for (const s of DEMO_SERVICES) {
    const forge = demoForgeOf(s);
    if (!forge) continue;
    const releases = s.releases.map(([version, daysAgo]) => {
      const tag = `${forge.prefix}${version}`;
      const at = iso(now - daysAgo * DAY);
      return { id: id++, tag_name: tag, name: `${s.name} ${version}`, published_at: at, created_at: at, html_url: `https://github.com/${forge.github}/releases/tag/${tag}`, prerelease: false, draft: false };
    });
    out.set(forge.github, releases.reverse());
  }
  return out;
}

/** Production's cache waits for the next minor; notifications are put off for a week. */
export const DEMO_ACKS = [
  { service: "cache", kind: "release", until_version: "7.5.0", environment: "production", duration: "30d" },
  { service: "notifications", kind: "drift", environment: "production", duration: "7d" },
] as const;
