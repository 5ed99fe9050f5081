// Badges (spec "Badge"): a signing key per workspace, signed badge addresses,
// and the state a badge shows. The key is read from the database on every
// request, so `driftwatch badges reset` takes effect at once in every process.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/domain/errors";
import type { DriftKind } from "@/lib/domain/policy";
import { compareTags, jumpBetween } from "@/lib/domain/versions";
import { badgeLabel } from "@/lib/render/badge";
import { explainBadgeState, worstBadgeState, type BadgeRule, type BadgeState, type VersionJump } from "@/lib/render/badge-state";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { getMatrix } from "../matrix/get";

type BadgeKey = { keyId: string; secret: string };

export type BadgeAddress = { environment: string | null; label: string; url: string; markdown: string };

export type BadgeView = {
  environment: string | null;
  label: string;
  /** The running version as the matrix shows it (`1.27 = 1.27.3`), or "" when none is known. */
  version: string;
  state: BadgeState;
  rule: BadgeRule | null;
  note: string | null;
};

/** The workspace's key, created on first use. Concurrent first uses agree on one key. */
async function ensureBadgeKey(db: Db, workspaceId: string): Promise<BadgeKey> {
  const existing = await db.badgeKey.findUnique({ where: { workspaceId }, select: { keyId: true, secret: true } });
  if (existing) return existing;
  try {
    return await db.badgeKey.create({ data: { workspaceId, ...newKey() }, select: { keyId: true, secret: true } });
  } catch (err) {
    if ((err as { code?: string }).code !== "P2002") throw err;
    return db.badgeKey.findUniqueOrThrow({ where: { workspaceId }, select: { keyId: true, secret: true } });
  }
}

function newKey(): BadgeKey {
  return { keyId: randomBytes(12).toString("base64url"), secret: randomBytes(32).toString("base64url") };
}

/** HMAC-SHA256 over (workspace id, service, environment or ""), base64url. */
export function signBadge(secret: string, workspaceId: string, service: string, environment: string | null): string {
  return createHmac("sha256", secret).update(JSON.stringify([workspaceId, service, environment ?? ""])).digest("base64url");
}

/** Exact string comparison in constant time (for strings of the expected length). */
export function isSameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}

function address(baseUrl: string, key: BadgeKey, workspaceId: string, service: string, environment: string | null): BadgeAddress {
  const sig = signBadge(key.secret, workspaceId, service, environment);
  const query = new URLSearchParams();
  if (environment) query.set("env", environment);
  query.set("sig", sig);
  const url = `${baseUrl}/badge/${key.keyId}/${encodeURIComponent(service)}.svg?${query.toString()}`;
  const label = badgeLabel(service, environment);
  return { environment, label, url, markdown: `[![${label}](${url})](${baseUrl}/services/${encodeURIComponent(service)})` };
}

/** The address of one badge (one environment, or all with `environment` null). Members and higher. */
export async function getBadgeAddress({ ctx, name, environment }: { ctx: RequestCtx; name: string; environment: string | null }): Promise<BadgeAddress> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const service = await ctx.db.service.findUnique({ where: { workspaceId_name: { workspaceId, name } }, select: { id: true } });
  if (!service) throw new AppError("not_found", `Service ${name} was not found.`);
  if (environment) {
    const env = await ctx.db.environment.findUnique({ where: { workspaceId_name: { workspaceId, name: environment } }, select: { id: true } });
    if (!env) throw new AppError("not_found", `Environment ${environment} was not found.`, { errors: [{ pointer: "/query/env", detail: "no such environment" }] });
  }
  const key = await ensureBadgeKey(ctx.db, workspaceId);
  return address(ctx.config.baseUrl, key, workspaceId, name, environment);
}

/** Addresses for all environments and for each given one, signed with one read of the key. */
export async function listBadgeAddresses({ ctx, name, environments }: { ctx: RequestCtx; name: string; environments: string[] }): Promise<BadgeAddress[]> {
  requireRole(ctx.actor, "member");
  const workspaceId = workspaceOf(ctx.actor);
  const key = await ensureBadgeKey(ctx.db, workspaceId);
  return [null, ...environments].map((env) => address(ctx.config.baseUrl, key, workspaceId, name, env));
}

/** A new key: every address handed out stops loading at once. */
export async function resetBadgeKey({ ctx }: { ctx: RequestCtx }): Promise<{ key_id: string; reset_at: string }> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const key = newKey();
  const now = ctx.now;
  await ctx.db.$transaction(async (tx) => {
    await tx.badgeKey.upsert({ where: { workspaceId }, create: { workspaceId, ...key, createdAt: now }, update: { ...key, createdAt: now } });
    await tx.auditEntry.create({ data: { workspaceId, actor: actorLabel(ctx.actor), action: "badge_key.reset", subject: workspaceId } });
  });
  return { key_id: key.keyId, reset_at: now.toISOString() };
}

type Row = Awaited<ReturnType<typeof getMatrix>>["services"][number];
type LiveDrift = { environment: string; kind: DriftKind; state: "open" | "announced" };

function upstreamJump(version: string | null, newest: string | null): VersionJump | null {
  if (!version || !newest || (compareTags(newest, version) ?? 0) <= 0) return null;
  return jumpBetween(version, newest);
}

/** The badge for each environment the service runs in, and for all of them (environment null, first). */
export function badgeViews(row: Row, drifts: readonly LiveDrift[], environments: readonly { name: string; production: boolean }[]): BadgeView[] {
  const perEnv: BadgeView[] = row.cells.map((cell) => {
    const explained = explainBadgeState({
      hasVersion: cell.version !== null,
      drifts: drifts.filter((d) => d.environment === cell.environment).map((d) => ({ kind: d.kind, state: d.state })),
      eolState: cell.eol?.state ?? null,
      upstreamJump: upstreamJump(cell.version, row.upstream.newest),
    });
    return { environment: cell.environment, label: badgeLabel(row.name, cell.environment), version: cell.version ? cell.display : "", ...explained };
  });
  // All environments: the most severe state; the version of production, else of the last environment in the pipeline.
  const production = row.cells.filter((c) => environments.find((e) => e.name === c.environment)?.production);
  const shown = (production.length ? production : row.cells).at(-1);
  const worst = worstBadgeState(perEnv.map((b) => b.state));
  const deciding = perEnv.find((b) => b.state === worst) ?? null;
  const all: BadgeView = {
    environment: null,
    label: badgeLabel(row.name, null),
    version: shown?.version ? shown.display : "",
    state: worst,
    rule: deciding?.rule ?? null,
    note: deciding?.note ?? null,
  };
  return [all, ...perEnv];
}

/** Every badge of one service, as its page shows them. */
export async function getServiceBadges({ ctx, name }: { ctx: RequestCtx; name: string }): Promise<BadgeView[]> {
  const workspaceId = workspaceOf(ctx.actor);
  const matrix = await getMatrix({ ctx, input: { q: name } });
  const row = matrix.services.find((s) => s.name === name);
  if (!row) throw new AppError("not_found", `Service ${name} was not found.`);
  const drifts = await ctx.db.drift.findMany({
    where: { workspaceId, active: true, service: { name } },
    select: { kind: true, state: true, environment: { select: { name: true } } },
  });
  const live = drifts.flatMap((d) => (d.state === "resolved" ? [] : [{ environment: d.environment.name, kind: d.kind, state: d.state }]));
  return badgeViews(row, live, matrix.environments);
}

/**
 * The badge behind a public address, or null when the key id, the signature
 * or the service is wrong: callers answer 404 without saying which.
 */
export async function loadSignedBadge(
  deps: Pick<RequestCtx, "db" | "config" | "now">,
  input: { keyId: string; service: string; environment: string | null; sig: string },
): Promise<BadgeView | null> {
  const key = await deps.db.badgeKey.findUnique({ where: { keyId: input.keyId }, select: { workspaceId: true, secret: true } });
  // An unknown key id still costs one HMAC, so timing does not tell the parts apart.
  const expected = signBadge(key?.secret ?? "", key?.workspaceId ?? "", input.service, input.environment);
  if (!isSameSignature(input.sig, expected) || !key) return null;
  const ctx: RequestCtx = { ...deps, actor: { kind: "system", workspaceId: key.workspaceId } };
  try {
    const views = await getServiceBadges({ ctx, name: input.service });
    const view = views.find((v) => v.environment === input.environment);
    return view ?? { environment: input.environment, label: badgeLabel(input.service, input.environment), version: "", state: "unknown", rule: null, note: null };
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  }
}
