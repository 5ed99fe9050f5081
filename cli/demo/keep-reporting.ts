// While `driftwatch demo` runs, its targets keep reporting, as agents would:
// every minute (or a third of the quiet delay) each sends its last report again
// with a new `observed_at`. The
// workloads are the ones planned when the workspace was filled (same `since`),
// so the server takes it as the same report and only notes the target as seen.
import { DEMO_SERVICES, demoImageDigest, demoReportsFor, type DemoPlanInput } from "@/lib/domain/demo/plan";
import { DEMO_TARGETS } from "@/lib/domain/demo/dataset";
import type { DemoRegistry } from "./registry";

/** As an agent reports; more often when the quiet delay is shorter, so the targets never turn quiet. */
export function keepReportingEvery(quietAfterMs: number): number {
  return Math.max(1_000, Math.min(60_000, Math.floor(quietAfterMs / 3)));
}

type KeepReportingInput = {
  baseUrl: string;
  agentKey: string;
  imageHost: string;
  registry: DemoRegistry | null;
  recordedTags: boolean;
  /** When the workspace was filled (ms); null for a workspace filled by an earlier version. */
  plannedAt: number | null;
  quietAfterMs: number;
  log: (line: string) => void;
};

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

export async function startKeepReporting(input: KeepReportingInput): Promise<{ stop: () => void }> {
  if (input.plannedAt === null) {
    input.log("  This demo workspace was filled by an earlier version: its targets are not kept reporting (remove its data directory to start afresh).");
    return { stop: () => {} };
  }
  const digests = new Map<string, string>();
  if (input.registry) {
    for (const s of DEMO_SERVICES) {
      for (const [tag] of s.releases) {
        const digest = await input.registry.digestOf(s.repository, tag);
        if (digest) digests.set(`${s.repository}:${tag}`, digest);
      }
    }
  }
  const plan: DemoPlanInput = {
    imageHost: input.imageHost,
    digestOf: (repository, tag) => digests.get(`${repository}:${tag}`) ?? demoImageDigest(repository, tag),
    recordedTags: input.recordedTags,
    now: input.plannedAt,
  };
  const last = DEMO_TARGETS.map((t) => demoReportsFor(plan, t).at(-1)!);
  let failing = false;
  const send = async () => {
    const observedAt = iso(Date.now());
    const results = await Promise.all(last.map((report) =>
      fetch(`${input.baseUrl}/api/v1/agent/report`, {
        method: "POST",
        headers: { authorization: `Bearer ${input.agentKey}`, "content-type": "application/json" },
        body: JSON.stringify({ ...report, observed_at: observedAt }),
      }).then(async (r) => (await r.body?.cancel(), r.status), () => 0)));
    const bad = results.find((s) => s !== 202);
    // Said once when it starts failing, once when it recovers: not a line a minute.
    if (bad !== undefined && !failing) input.log(`  The demo's targets could not report (${bad || "no answer"}); trying again at the next report.`);
    if (bad === undefined && failing) input.log("  The demo's targets report again.");
    failing = bad !== undefined;
  };
  await send();
  const timer = setInterval(() => void send(), keepReportingEvery(input.quietAfterMs));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
