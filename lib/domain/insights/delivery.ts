// Delivery statistics, from what ran when: versions arriving per environment
// (the first time a version runs on any target there), and lead times
// between neighbouring environments. One pass over history plus sorting the samples.
import type { EnvironmentInfo, HistoryRun } from "@/lib/domain/drift";

export type DeliveryWindow = { from: Date; to: Date };

export type DeliveryStats = {
  environments: { environment: string; deploys: number }[];
  /** median_seconds is null for a pair without samples in the window. */
  lead_times: { from_environment: string; to_environment: string; median_seconds: number | null; samples: number }[];
};

export type ComputeDeliveryInput = {
  environments: readonly EnvironmentInfo[];
  /**
   * Every runtime row of the services, closed and open. It must reach back
   * before the window: a version that ran before counts as a re-deploy.
   */
  history: readonly HistoryRun[];
  /** Half-open: from ≤ arrival < to. */
  window: DeliveryWindow;
};

/**
 * A deploy is a version's arrival in an environment: the first time it runs on
 * any target there. Re-deploys, rollbacks and Compose declarations are not
 * deploys, and an unresolved moving tag (no exact version) is not counted.
 *
 * A lead time pairs a version's arrival in an environment with its arrival in
 * the next environment in pipeline order, counted in the window of the later
 * arrival. Only neighbouring environments pair: a version that skipped one
 * gives no sample for either pair around it (rather than a long sample that
 * would mix two hops into one). A version that reached the later environment
 * first (a hotfix) gives no sample either.
 */
export function computeDelivery({ environments, history, window }: ComputeDeliveryInput): DeliveryStats {
  const index = new ArrivalIndex(environments);
  for (const row of history) if (!row.declared && row.version !== null) index.add(row.serviceId, row.environmentId, row.version, row.since.getTime());
  return index.stats(window);
}

/**
 * Each version's first arrival per environment, the input of the delivery
 * statistics (see computeDelivery), built without materialising history rows:
 * the service layer adds arrivals as it reads them.
 */
export class ArrivalIndex {
  /** In pipeline order. */
  readonly environments: readonly EnvironmentInfo[];
  readonly #position: Map<string, number>;
  /** serviceId → version → first arrival (ms) per environment, in pipeline order; NaN: never arrived. */
  readonly #firsts = new Map<string, Map<string, Float64Array>>();

  constructor(environments: readonly EnvironmentInfo[]) {
    this.environments = [...environments].sort((a, b) => a.position - b.position);
    this.#position = new Map(this.environments.map((e, i) => [e.id, i] as const));
  }

  /** `version` ran in the environment from `at` (ms); the earliest is kept. Unknown environments are ignored. */
  add(serviceId: string, environmentId: string, version: string, at: number): void {
    const e = this.#position.get(environmentId);
    if (e === undefined) return;
    let byVersion = this.#firsts.get(serviceId);
    if (byVersion === undefined) this.#firsts.set(serviceId, (byVersion = new Map()));
    let byEnv = byVersion.get(version);
    if (byEnv === undefined) byVersion.set(version, (byEnv = new Float64Array(this.environments.length).fill(Number.NaN)));
    if (!(at >= (byEnv[e] as number))) byEnv[e] = at; // NaN compares false: the first arrival is taken
  }

  /** Every service's versions with their first arrivals per environment (pipeline order, NaN: never). */
  *versions(): Generator<{ serviceId: string; version: string; arrivals: Float64Array }> {
    for (const [serviceId, byVersion] of this.#firsts) for (const [version, arrivals] of byVersion) yield { serviceId, version, arrivals };
  }

  /** Per environment (pipeline order), the services whose versions arrived in the window, with how many; most first. */
  arrivalsByService(window: DeliveryWindow): { environment: string; services: { serviceId: string; deploys: number }[] }[] {
    const from = window.from.getTime();
    const to = window.to.getTime();
    const counts = this.environments.map(() => new Map<string, number>());
    for (const [serviceId, byVersion] of this.#firsts) {
      for (const byEnv of byVersion.values()) {
        for (let e = 0; e < byEnv.length; e++) {
          const at = byEnv[e] as number;
          if (at >= from && at < to) counts[e]?.set(serviceId, (counts[e]?.get(serviceId) ?? 0) + 1);
        }
      }
    }
    return this.environments.map((env, i) => ({
      environment: env.name,
      services: [...(counts[i] ?? [])].map(([serviceId, deploys]) => ({ serviceId, deploys })).sort((a, b) => b.deploys - a.deploys || a.serviceId.localeCompare(b.serviceId)),
    }));
  }

  stats(window: DeliveryWindow): DeliveryStats {
    const ordered = this.environments;
    const from = window.from.getTime();
    const to = window.to.getTime();
    const deploys = ordered.map(() => 0);
    const samples = ordered.slice(1).map(() => [] as number[]);
    const isInWindow = (t: number) => t >= from && t < to;
    for (const byVersion of this.#firsts.values()) {
      for (const byEnv of byVersion.values()) {
        for (let e = 0; e < byEnv.length; e++) {
          const later = byEnv[e] as number;
          if (!isInWindow(later)) continue; // NaN is never in the window
          deploys[e] = (deploys[e] as number) + 1;
          const earlier = e > 0 ? (byEnv[e - 1] as number) : Number.NaN;
          if (later >= earlier) (samples[e - 1] as number[]).push((later - earlier) / 1000);
        }
      }
    }
    return {
      environments: ordered.map((e, i) => ({ environment: e.name, deploys: deploys[i] ?? 0 })),
      lead_times: samples.map((list, i) => ({
        from_environment: (ordered[i] as EnvironmentInfo).name,
        to_environment: (ordered[i + 1] as EnvironmentInfo).name,
        median_seconds: medianSeconds(list),
        samples: list.length,
      })),
    };
  }
}

/** Median; for an even count the mean of the two middle values; rounded to whole seconds. */
export function medianSeconds(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return Math.round(value);
}
