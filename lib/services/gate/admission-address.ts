// The admission webhook's signed address: `/admission/<key id>.<environment>.<signature>`,
// the environment's name base64url-encoded. It shares the badge key, so a badge
// reset stops every webhook address too; the signed message differs in shape
// from a badge's and a calendar's, so no other signature opens it.
import { createHmac } from "node:crypto";
import { getBadgeKeyById } from "@/lib/db/queries/badges/get-badge-key-by-id";
import { getEnvironment } from "@/lib/db/queries/environments/get-environment";
import { validatingWebhookConfiguration } from "@/lib/adapters/runtimes/kubernetes/admission";
import { AppError } from "@/lib/domain/errors";
import { ensureBadgeKey, isSameSignature, type BadgeKey } from "../badges/keys";
import { requireRole, workspaceOf, type RequestCtx } from "../context";

/** HMAC-SHA256 over ("admission", workspace id, environment), base64url. */
export function signAdmission(secret: string, workspaceId: string, environment: string): string {
  return createHmac("sha256", secret).update(JSON.stringify(["admission", workspaceId, environment])).digest("base64url");
}

export function admissionUrl(baseUrl: string, key: BadgeKey, workspaceId: string, environment: string): string {
  return `${baseUrl}/admission/${key.keyId}.${Buffer.from(environment, "utf8").toString("base64url")}.${signAdmission(key.secret, workspaceId, environment)}`;
}

const SIGNED_RE = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,300})\.([A-Za-z0-9_-]{1,128})$/;

/** The parts of a signed address, not yet checked; null when it is not shaped as one. */
export type SignedAdmission = { keyId: string; environment: string; signature: string };

export function parseAdmissionAddress(signed: string): SignedAdmission | null {
  const m = SIGNED_RE.exec(signed);
  return m && { keyId: m[1]!, environment: Buffer.from(m[2]!, "base64url").toString("utf8"), signature: m[3]! };
}

/**
 * True when the address was signed with this key (the one its key id names; null when none).
 * An unknown key id still costs one HMAC, so timing does not tell the parts apart.
 */
export function isSignedWith(address: SignedAdmission, key: { workspaceId: string; secret: string } | null): boolean {
  const expected = signAdmission(key?.secret ?? "", key?.workspaceId ?? "", address.environment);
  return isSameSignature(address.signature, expected) && key !== null;
}

/** The workspace and environment an address names, or null when any part is wrong: callers answer 404 without saying which. */
export async function loadSignedAdmission({ ctx, input }: { ctx: Pick<RequestCtx, "db">; input: { signed: string } }): Promise<{ workspaceId: string; environment: string } | null> {
  const address = parseAdmissionAddress(input.signed);
  if (!address) return null;
  const key = await getBadgeKeyById(ctx.db, address.keyId);
  if (!isSignedWith(address, key)) return null;
  return { workspaceId: key!.workspaceId, environment: address.environment };
}

export type AdmissionAddress = { url: string; webhook: Record<string, unknown> };

/** Admins: the address lets anyone who holds it ask the gate, and the webhook it makes decides what a cluster may run. */
export async function getAdmissionAddress({ ctx, input }: { ctx: RequestCtx; input: { name: string; failure_policy?: "Ignore" | "Fail"; namespaces?: string[] } }): Promise<AdmissionAddress> {
  requireRole(ctx.actor, "admin");
  const workspaceId = workspaceOf(ctx.actor);
  const env = await getEnvironment(ctx.db, workspaceId, input.name);
  if (!env) throw new AppError("not_found", `Environment ${input.name} was not found.`);
  const key = await ensureBadgeKey(ctx.db, workspaceId);
  const url = admissionUrl(ctx.config.baseUrl, key, workspaceId, env.name);
  return {
    url,
    webhook: validatingWebhookConfiguration({ environment: env.name, url, failurePolicy: input.failure_policy ?? "Ignore", namespaces: input.namespaces ?? null }),
  };
}
