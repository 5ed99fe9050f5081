// A signing key per workspace and the signed addresses it makes. The key is
// read from the database on every request, so `driftwatch badges reset` takes
// effect at once in every process.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { createBadgeKey } from "@/lib/db/queries/badges/create-badge-key";
import { getBadgeKey } from "@/lib/db/queries/badges/get-badge-key";
import { badgeLabel } from "@/lib/render/badge";

export type BadgeKey = { keyId: string; secret: string };

export type BadgeAddress = { environment: string | null; label: string; url: string; markdown: string };

/** The workspace's key, created on first use. Concurrent first uses agree on one key. */
export async function ensureBadgeKey(db: Db, workspaceId: string): Promise<BadgeKey> {
  const existing = await getBadgeKey(db, workspaceId);
  if (existing) return existing;
  try {
    return await createBadgeKey(db, { workspaceId, ...newKey() });
  } catch (err) {
    if ((err as { code?: string }).code !== "P2002") throw err;
    const winner = await getBadgeKey(db, workspaceId);
    if (!winner) throw err;
    return winner;
  }
}

export function newKey(): BadgeKey {
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

export function address(baseUrl: string, key: BadgeKey, workspaceId: string, service: string, environment: string | null): BadgeAddress {
  const sig = signBadge(key.secret, workspaceId, service, environment);
  const query = new URLSearchParams();
  if (environment) query.set("env", environment);
  query.set("sig", sig);
  const url = `${baseUrl}/badge/${key.keyId}/${encodeURIComponent(service)}.svg?${query.toString()}`;
  const label = badgeLabel(service, environment);
  return { environment, label, url, markdown: `[![${label}](${url})](${baseUrl}/services/${encodeURIComponent(service)})` };
}
