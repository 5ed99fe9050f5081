// Fills the demo workspace through the public paths only: the REST API with a
// member token, and agent reports with an agent key, exactly as a team's own
// scripts and agents would.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEMO_ACKS, DEMO_ENVIRONMENTS, DEMO_SERVICES, demoDeclarations, demoReports, demoServiceUpdates } from "@/lib/domain/demo/plan";

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
  const lines = ["services:"];
  for (const d of demoDeclarations(input)) lines.push(`  ${d.service}:`, `    image: ${d.image}`);
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
  await Promise.all(demoReports(input).map(async (ofTarget) => {
    for (const report of ofTarget) {
      await call(input, "POST", "/api/v1/agent/report", report, input.agentKey);
      reports++;
    }
  }));
  log(`  ${reports} agent reports covering 60 days sent in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  await eachLimited(demoServiceUpdates({ forge: true }), 4, async ({ name, ...body }) => {
    await call(input, "PATCH", `/api/v1/services/${name}`, body);
  });

  const repo = writeComposeRepository(input);
  await call(input, "POST", "/api/v1/targets", {
    environment: "staging", kind: "compose_git", repository_url: `file://${repo}`, branch: "main", paths: ["staging/compose.yaml"],
  }, input.token, [409]);

  for (const ack of DEMO_ACKS) await call(input, "POST", "/api/v1/acks", ack);

  // The server checks new services within a minute by itself; asking now shows upstream drift at once.
  if (!input.recordedTags) await eachLimited(DEMO_SERVICES, 4, async (s) => void (await call(input, "POST", `/api/v1/services/${s.name}/check`, undefined)));
  log(`  environments, teams, a Compose file in Git, acknowledgements and upstream checks done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
