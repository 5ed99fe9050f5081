// Fills the demo workspace through the public paths only: the REST API with a
// member token, and agent reports with an agent key, exactly as a team's own
// scripts and agents would.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  DECLARED_AHEAD, DECLARED_IN_STAGING, DEMO_ENVIRONMENTS, DEMO_SERVICES, DEMO_TARGETS, deploysOn, runningAt, type Deploy,
} from "./dataset";

export type SeedInput = {
  baseUrl: string;
  token: string;
  agentKey: string;
  /** host[:port] the images are named under. */
  imageHost: string;
  digestOf: (repository: string, tag: string) => string;
  /** Without a registry: the tags the agent "looked up", sent with its reports. */
  recordedTags: boolean;
  /** Where the Compose-in-Git repository is created. */
  gitDir: string;
  now: number;
};

const DAY = 86_400_000;

async function call(input: SeedInput, method: string, route: string, body: unknown, bearer = input.token, okStatuses: number[] = []): Promise<unknown> {
  const res = await fetch(`${input.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok && !okStatuses.includes(res.status)) {
    let detail = text.slice(0, 300);
    try {
      const problem = JSON.parse(text) as { detail?: string; errors?: { pointer: string; detail: string }[] };
      detail = [problem.detail ?? detail, ...(problem.errors ?? []).map((e) => `${e.pointer} ${e.detail}`)].join("; ");
    } catch {
      /* not JSON */
    }
    throw new Error(`${method} ${route} answered ${res.status}: ${detail}`);
  }
  return text ? (JSON.parse(text) as unknown) : null;
}

/** Runs `fn` over `items`, `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** One target's reports, oldest first: one a day on which something changed there, and one now. */
function reportsFor(input: SeedInput, target: (typeof DEMO_TARGETS)[number]) {
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

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    stdio: "pipe",
    env: { ...process.env, GIT_AUTHOR_NAME: "Driftwatch demo", GIT_AUTHOR_EMAIL: "demo@example.com", GIT_COMMITTER_NAME: "Driftwatch demo", GIT_COMMITTER_EMAIL: "demo@example.com" },
  });

/** A real Git repository whose Compose file declares what staging should run. */
function writeComposeRepository(input: SeedInput): string {
  const repo = path.join(input.gitDir, "deploy");
  mkdirSync(path.join(repo, "staging"), { recursive: true });
  const staging = DEMO_TARGETS.find((t) => t.environment === "staging")!;
  const lines = ["services:"];
  for (const name of DECLARED_IN_STAGING) {
    const service = DEMO_SERVICES.find((s) => s.name === name)!;
    const version = DECLARED_AHEAD[name] ?? runningAt(deploysOn(service, staging, input.now), input.now)!.version;
    lines.push(`  ${name}:`, `    image: ${input.imageHost}/${service.repository}:${version}`);
  }
  writeFileSync(path.join(repo, "staging/compose.yaml"), lines.join("\n") + "\n");
  git(repo, "init", "--quiet", "--initial-branch=main");
  git(repo, "add", "-A");
  git(repo, "commit", "--quiet", "-m", "staging: declare the next payments release");
  return repo;
}

export async function seedDemo(input: SeedInput, log: (line: string) => void): Promise<void> {
  for (const env of DEMO_ENVIRONMENTS) await call(input, "POST", "/api/v1/environments", env, input.token, [409]);

  const started = Date.now();
  let reports = 0;
  // Each target's reports go in order (an older one than the last is ignored); targets go side by side.
  await Promise.all(DEMO_TARGETS.map(async (target) => {
    for (const report of reportsFor(input, target)) {
      await call(input, "POST", "/api/v1/agent/report", report, input.agentKey);
      reports++;
    }
  }));
  log(`  ${reports} agent reports covering 60 days sent in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  await eachLimited(DEMO_SERVICES, 4, async (s) => {
    await call(input, "PATCH", `/api/v1/services/${s.name}`, { team: s.team, ...(s.eol ? { policy: { eol: s.eol } } : {}) });
  });

  const repo = writeComposeRepository(input);
  await call(input, "POST", "/api/v1/targets", {
    environment: "staging", kind: "compose_git", repository_url: `file://${repo}`, branch: "main", paths: ["staging/compose.yaml"],
  }, input.token, [409]);

  // Production's cache waits for the next minor; notifications are put off for a week.
  await call(input, "POST", "/api/v1/acks", { service: "cache", kind: "release", until_version: "7.5.0", environment: "production", duration: "30d" });
  await call(input, "POST", "/api/v1/acks", { service: "notifications", kind: "drift", environment: "production", duration: "7d" });

  // The server checks new services within a minute by itself; asking now shows upstream drift at once.
  if (!input.recordedTags) await eachLimited(DEMO_SERVICES, 4, async (s) => void (await call(input, "POST", `/api/v1/services/${s.name}/check`, undefined)));
  log(`  environments, teams, a Compose file in Git, acknowledgements and upstream checks done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
