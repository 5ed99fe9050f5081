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

/** The workspace and environment an address names, or null when any part is wrong: callers answer 404 without saying which. */
export async function loadSignedAdmission({ ctx, input }: { ctx: Pick<RequestCtx, "db">; input: { signed: string } }): Promise<{ workspaceId: string; environment: string } | null> {
  const m = SIGNED_RE.exec(input.signed);
  if (!m) return null;
  const environment = Buffer.from(m[2]!, "base64url").toString("utf8");
  const key = await getBadgeKeyById(ctx.db, m[1]!);
  // An unknown key id still costs one HMAC, so timing does not tell the parts apart.
  const expected = signAdmission(key?.secret ?? "", key?.workspaceId ?? "", environment);
  if (!isSameSignature(m[3]!, expected) || !key) return null;
  return { workspaceId: key.workspaceId, environment };
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
