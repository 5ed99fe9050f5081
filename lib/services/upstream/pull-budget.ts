// The pull budget as the checks use it: rationed hosts only (others spend
// freely), shared through the database by every process, learning from the
// host's own rate-limit headers after each request. A budget belongs to an
// identity: anonymous pulls, a signed-in user's, or a mirror's.
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { recordPullsBlocked, recordRateLimit } from "@/lib/db/queries/registry-budget/record-rate-limit";
import { releasePulls } from "@/lib/db/queries/registry-budget/release-pulls";
import { reservePulls, type BudgetDefaults, type Reservation } from "@/lib/db/queries/registry-budget/reserve-pulls";
import { normaliseRegistryHost } from "@/lib/domain/image-ref";
import type { BudgetView, PullPurpose } from "@/lib/domain/registry-budget/budget";
import { pullProfileOf, type PullProfile } from "@/lib/domain/registry-budget/profiles";
import { registryCredentialsFor, registryMirrorFor } from "./registry-credentials";

type BudgetDeps = {
  db: Db;
  config: Pick<Config, "dockerHubHosts" | "registryCredentials" | "dockerHubMirror">;
  clients: { registry: { rateLimitOf(host: string): { limit: number | null; remaining: number; windowSeconds: number | null; at: number } | null } };
  now: Date;
};

export type RationedHost = {
  host: string;
  profile: PullProfile;
  defaults: BudgetDefaults;
  isSignedIn: boolean;
  /** Whose budget: `anonymous`, `user:<name>`, or `mirror:<host>`. */
  identity: string;
  /** The mirror the host's pulls go to (its base URL), or null. */
  mirror: string | null;
};

/** The host's budget terms, or null when its pulls are not rationed. */
export function rationedHost(config: BudgetDeps["config"], host: string): RationedHost | null {
  const h = normaliseRegistryHost(host);
  const profile = pullProfileOf(h, { dockerHubHosts: config.dockerHubHosts });
  if (!profile) return null;
  const mirror = registryMirrorFor(config)(h);
  // A mirror is read without the host's credentials (it pulls with its own): its budget is its own.
  const credentials = mirror ? null : registryCredentialsFor(config)(h);
  const isSignedIn = credentials !== null;
  return {
    host: h,
    profile,
    isSignedIn,
    identity: mirror ? `mirror:${new URL(mirror).host}` : credentials ? `user:${credentials.username}` : "anonymous",
    mirror,
    defaults: { limit: isSignedIn ? profile.authenticatedPullsPerWindow : profile.anonymousPullsPerWindow, windowSeconds: profile.windowSeconds },
  };
}

/** The budget of an identity that has spent nothing and heard nothing yet: the profile's whole window. */
export function freshBudgetView(rationed: RationedHost): BudgetView {
  return { limit: rationed.defaults.limit, windowMs: rationed.defaults.windowSeconds * 1000, pulls: [], headerRemaining: null, headerAt: null, pullsSinceHeader: 0, blockedUntil: null };
}

export type Spend = { granted: true; release(unused: number): Promise<void> } | { granted: false; nextAt: Date };

/** Reserve `pulls` pulls on the host for a purpose; unrationed hosts always grant. */
export async function spendPulls(deps: BudgetDeps, host: string, purpose: PullPurpose, pulls: number): Promise<Spend> {
  const rationed = rationedHost(deps.config, host);
  if (!rationed || pulls <= 0) return { granted: true, release: async () => {} };
  const budget = { host: rationed.host, identity: rationed.identity };
  // A mirror has a budget only once it passes the host's rate-limit headers through.
  const r: Reservation = await reservePulls(deps.db, { ...budget, defaults: rationed.defaults, purpose, pulls, now: deps.now, onlyOnceLimited: rationed.mirror !== null });
  if (!r.granted) return r;
  return {
    granted: true,
    release: async (unused) => {
      if (unused > 0) await releasePulls(deps.db, budget, r.ids.slice(0, unused));
    },
  };
}

/** Store what the host last said of its quota (read by the client from any response). */
export async function noteRateLimit(deps: BudgetDeps, host: string): Promise<void> {
  const rationed = rationedHost(deps.config, host);
  if (!rationed) return;
  const seen = deps.clients.registry.rateLimitOf(rationed.host);
  if (!seen) return;
  await recordRateLimit(deps.db, { host: rationed.host, identity: rationed.identity, defaults: rationed.defaults, at: new Date(seen.at), limit: seen.limit, remaining: seen.remaining, windowSeconds: seen.windowSeconds });
}

/** A 429 on the host: no pull from any process before `until`. */
export async function notePullsRefused(deps: BudgetDeps, host: string, retryAfterSeconds: number | undefined): Promise<void> {
  const rationed = rationedHost(deps.config, host);
  if (!rationed) return;
  const now = deps.now;
  const until = new Date(now.getTime() + (retryAfterSeconds ?? rationed.defaults.windowSeconds) * 1000);
  await recordPullsBlocked(deps.db, { host: rationed.host, identity: rationed.identity, defaults: rationed.defaults, until, at: now });
}
