// Drift figures: one full evaluation (detectDifferences + planLifecycle) and
// delivery statistics over an in-memory workspace of 2,000 services × 4
// environments × 3 targets with 90 days of history. No database.
import { pathToFileURL } from "node:url";
import { median, type Figure } from "@/bench/figures";
import {
  detectDifferences, indexRunningVersions, planLifecycle,
  type AckRecord, type CurrentRun, type DriftRecord, type EnvironmentInfo, type HistoryRun, type LifecyclePlan, type ServiceInput,
} from "@/lib/domain/drift";
import { computeDelivery } from "@/lib/domain/insights";
import { DEFAULT_POLICY, type EffectivePolicy } from "@/lib/domain/policy";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = new Date("2026-03-01T12:00:00Z");
const SERVICES = 2_000;
const TARGETS = 3;
const ENVIRONMENTS: EnvironmentInfo[] = [
  { id: "dev", name: "dev", position: 1, production: false },
  { id: "test", name: "test", position: 2, production: false },
  { id: "staging", name: "staging", position: 3, production: false },
  { id: "prod", name: "production", position: 4, production: true },
];
/** Days from a release to its arrival in each environment. */
const LAG_DAYS = [0.2, 1, 3, 7];

type Workspace = { services: ServiceInput[]; history: HistoryRun[]; current: CurrentRun[]; acks: AckRecord[] };

/** A small deterministic generator, so every run measures the same workspace. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const versionOf = (k: number) => `${1 + Math.floor(k / 40)}.${Math.floor(k / 4) % 10}.${k % 4}`;

export function buildWorkspace(): Workspace {
  const rand = random(42);
  const services: ServiceInput[] = [];
  const history: HistoryRun[] = [];
  const acks: AckRecord[] = [];
  const start = NOW.getTime() - 90 * DAY;
  for (let s = 0; s < SERVICES; s++) {
    const id = `svc-${s}`;
    const every = (4 + Math.floor(rand() * 10)) * DAY; // a release every 4 to 13 days
    const releases: { version: string; at: number }[] = [];
    for (let k = 0, at = start - rand() * every; at < NOW.getTime(); k++, at += every) releases.push({ version: versionOf(k), at });
    const firstSeen = new Map(releases.map((r) => [r.version, new Date(r.at)] as const));
    const tags = [...releases.map((r) => r.version), "latest", "1", `${versionOf(0)}-alpine`];
    const hasEol = s % 10 === 0;
    const eolDate = new Date(NOW.getTime() + (rand() * 120 - 30) * DAY);
    services.push({
      id, name: `service-${s}`, team: `team-${s % 20}`, application: null,
      policy: { ...DEFAULT_POLICY, track: (["patch", "minor", "major"] as const)[s % 3] ?? "patch" },
      upstream: { tags, firstSeen },
      eol: hasEol ? new Map(releases.map((r) => [r.version, { product: "p", cycle: "1", eolDate }] as const)) : new Map(),
    });
    const isSlowProd = s % 7 === 0; // production skips most releases
    ENVIRONMENTS.forEach((env, e) => {
      for (let t = 0; t < TARGETS; t++) {
        const targetId = `${env.id}-${s % 50}-${t}`;
        const jitter = rand() * 6 * HOUR;
        let open: HistoryRun | null = null;
        releases.forEach((r, k) => {
          if (isSlowProd && env.id === "prod" && k % 4 !== 0) return;
          const since = r.at + (LAG_DAYS[e] ?? 0) * DAY + jitter;
          if (since >= NOW.getTime()) return;
          if (open !== null) open.to = new Date(since);
          open = {
            serviceId: id, environmentId: env.id, targetId, targetName: targetId, tag: r.version, version: r.version,
            digest: `sha256:${s}-${k}`, since: new Date(since), declared: false, to: null,
          };
          history.push(open);
        });
      }
    });
    if (s % 10 === 5) {
      const declared = releases[Math.max(0, releases.length - 3)];
      if (declared !== undefined) {
        history.push({
          serviceId: id, environmentId: "staging", targetId: `git-${s % 50}`, targetName: "git", tag: declared.version,
          version: declared.version, digest: null, since: new Date(declared.at), declared: true, to: null,
        });
      }
    }
    if (s % 4 === 0) {
      acks.push({
        id: `ack-${s}`, serviceId: id, environmentId: s % 8 === 0 ? "prod" : null, kind: s % 3 === 0 ? "drift" : "release",
        untilVersion: s % 3 === 0 ? null : versionOf(releases.length + 1), expiresAt: new Date(NOW.getTime() + 7 * DAY),
        liftedAt: null, createdAt: new Date(NOW.getTime() - DAY),
      });
    }
  }
  const current = history.filter((h) => h.to === null).map(({ to: _to, ...row }) => row);
  return { services, history, current, acks };
}

/** Applies a plan as the caller's transaction would, so the next evaluation starts from stored records. */
function applyPlan(records: DriftRecord[], plan: LifecyclePlan): DriftRecord[] {
  const byId = new Map(records.map((r) => [r.id, r] as const));
  plan.toOpen.forEach((o, i) => {
    byId.set(`new-${i}`, {
      id: `new-${i}`, serviceId: o.serviceId, environmentId: o.environmentId, kind: o.kind, targetId: o.targetId,
      state: o.announcedAt === null ? "open" : "announced", running: o.running, expected: o.expected,
      openedAt: o.since, announcedAt: o.announcedAt, resolvedAt: null,
    });
  });
  for (const a of plan.toAnnounce) {
    const r = byId.get(a.id);
    if (r !== undefined) byId.set(a.id, { ...r, state: "announced", announcedAt: a.announcedAt });
  }
  for (const r of plan.toResolve) byId.delete(r.id);
  return [...byId.values()];
}

function evaluate(ws: Workspace, policies: Map<string, EffectivePolicy>, records: readonly DriftRecord[], now: Date): LifecyclePlan {
  const differences = detectDifferences({ environments: ENVIRONMENTS, services: ws.services, current: ws.current, history: ws.history, now });
  return planLifecycle({ records, differences, policies, acks: ws.acks, currentVersions: indexRunningVersions(ws.current), now });
}

function time<T>(run: () => T): [number, T] {
  const started = performance.now();
  const value = run();
  return [performance.now() - started, value];
}

export async function benchDrift(): Promise<Figure[]> {
  const ws = buildWorkspace();
  const policies = new Map(ws.services.map((s) => [s.id, s.policy] as const));

  const [coldMs, firstPlan] = time(() => evaluate(ws, policies, [], NOW));
  const records = applyPlan([], firstPlan);
  const later = new Date(NOW.getTime() + 60_000);
  for (let i = 0; i < 3; i++) evaluate(ws, policies, records, later); // warm-up
  const runs: number[] = [];
  let plan = firstPlan;
  for (let i = 0; i < 7; i++) {
    const [ms, p] = time(() => evaluate(ws, policies, records, later));
    runs.push(ms);
    plan = p;
  }
  const evaluateMs = median(runs);

  const window = { from: new Date(NOW.getTime() - 90 * DAY), to: NOW };
  for (let i = 0; i < 2; i++) computeDelivery({ environments: ENVIRONMENTS, history: ws.history, window });
  const deliveryRuns: number[] = [];
  for (let i = 0; i < 7; i++) deliveryRuns.push(time(() => computeDelivery({ environments: ENVIRONMENTS, history: ws.history, window }))[0]);
  const deliveryMs = median(deliveryRuns);

  const shape = `${SERVICES} services × ${ENVIRONMENTS.length} environments × ${TARGETS} targets, ${ws.history.length} history rows, ${ws.current.length} open`;
  return [
    {
      name: "drift.evaluate_2000x4x3.median_ms",
      value: Number(evaluateMs.toFixed(1)),
      unit: "ms",
      target: "< 200 ms",
      pass: evaluateMs < 200,
      note: `detectDifferences + planLifecycle over ${shape}; ${records.length} live drift records, ${plan.toUpdate.length} updates in steady state; median of ${runs.length}`,
    },
    {
      name: "drift.evaluate_2000x4x3.first_ms",
      value: Number(coldMs.toFixed(1)),
      unit: "ms",
      target: "",
      pass: null,
      note: `first evaluation, cold JIT, no records yet: opens ${firstPlan.toOpen.length}, ${firstPlan.events.length} events`,
    },
    {
      name: "drift.delivery_90d.median_ms",
      value: Number(deliveryMs.toFixed(1)),
      unit: "ms",
      target: "< 200 ms",
      pass: deliveryMs < 200,
      note: `computeDelivery over ${ws.history.length} history rows; median of ${deliveryRuns.length}`,
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const f of await benchDrift()) {
    const verdict = f.pass === null ? "info" : f.pass ? "PASS" : "FAIL";
    console.log(`${verdict.padEnd(4)} ${f.name} = ${f.value} ${f.unit}${f.target ? ` (target ${f.target})` : ""}${f.note ? `  ${f.note}` : ""}`);
  }
}
