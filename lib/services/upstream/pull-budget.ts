// The pull budget as the checks use it: rationed hosts only (others spend
// freely), shared through the database by every process, learning from the
// host's own rate-limit headers after each request.
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { recordPullsBlocked, recordRateLimit } from "@/lib/db/queries/registry-budget/record-rate-limit";
import { releasePulls } from "@/lib/db/queries/registry-budget/release-pulls";
import { reservePulls, type BudgetDefaults, type Reservation } from "@/lib/db/queries/registry-budget/reserve-pulls";
import { normaliseRegistryHost } from "@/lib/domain/image-ref";
import type { PullPurpose } from "@/lib/domain/registry-budget/budget";
import { pullProfileOf, type PullProfile } from "@/lib/domain/registry-budget/profiles";
import { registryCredentialsFor } from "./registry-credentials";

type BudgetDeps = {
  db: Db;
  config: Pick<Config, "dockerHubHosts" | "registryCredentials">;
  clients: { registry: { rateLimitOf(host: string): { limit: number | null; remaining: number; windowSeconds: number | null; at: number } | null } };
  now: Date;
};

export type RationedHost = { host: string; profile: PullProfile; defaults: BudgetDefaults; isSignedIn: boolean };

/** The host's budget terms, or null when its pulls are not rationed. */
export function rationedHost(config: BudgetDeps["config"], host: string): RationedHost | null {
  const h = normaliseRegistryHost(host);
  const profile = pullProfileOf(h, { dockerHubHosts: config.dockerHubHosts });
  if (!profile) return null;
  const isSignedIn = registryCredentialsFor(config)(h) !== null;
  return {
    host: h,
    profile,
    isSignedIn,
    defaults: { limit: isSignedIn ? profile.authenticatedPullsPerWindow : profile.anonymousPullsPerWindow, windowSeconds: profile.windowSeconds },
  };
}

export type Spend = { granted: true; release(unused: number): Promise<void> } | { granted: false; nextAt: Date };

/** Reserve `pulls` pulls on the host for a purpose; unrationed hosts always grant. */
export async function spendPulls(deps: BudgetDeps, host: string, purpose: PullPurpose, pulls: number): Promise<Spend> {
  const rationed = rationedHost(deps.config, host);
  if (!rationed || pulls <= 0) return { granted: true, release: async () => {} };
  const r: Reservation = await reservePulls(deps.db, { host: rationed.host, defaults: rationed.defaults, purpose, pulls, now: deps.now });
  if (!r.granted) return r;
  return {
    granted: true,
    release: async (unused) => {
      if (unused > 0) await releasePulls(deps.db, rationed.host, r.ids.slice(0, unused));
    },
  };
}

/** Store what the host last said of its quota (read by the client from any response). */
export async function noteRateLimit(deps: BudgetDeps, host: string): Promise<void> {
  const rationed = rationedHost(deps.config, host);
  if (!rationed) return;
  const seen = deps.clients.registry.rateLimitOf(rationed.host);
  if (!seen) return;
  await recordRateLimit(deps.db, { host: rationed.host, defaults: rationed.defaults, at: new Date(seen.at), limit: seen.limit, remaining: seen.remaining, windowSeconds: seen.windowSeconds });
}

/** A 429 on the host: no pull from any process before `until`. */
export async function notePullsRefused(deps: BudgetDeps, host: string, retryAfterSeconds: number | undefined): Promise<void> {
  const rationed = rationedHost(deps.config, host);
  if (!rationed) return;
  const now = deps.now;
  const until = new Date(now.getTime() + (retryAfterSeconds ?? rationed.defaults.windowSeconds) * 1000);
  await recordPullsBlocked(deps.db, { host: rationed.host, defaults: rationed.defaults, until, at: now });
}
