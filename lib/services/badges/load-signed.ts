// The badge behind a public, signed address.
import { getBadgeKeyById } from "@/lib/db/queries/badges/get-badge-key-by-id";
import { AppError } from "@/lib/domain/errors";
import { badgeLabel } from "@/lib/render/badge";
import type { RequestCtx } from "../context";
import { isSameSignature, signBadge } from "./keys";
import { getServiceBadges } from "./list-service-badges";
import type { BadgeView } from "./views";

/**
 * The badge behind a public address, or null when the key id, the signature
 * or the service is wrong: callers answer 404 without saying which.
 */
export async function loadSignedBadge({
  ctx: deps,
  input,
}: {
  ctx: Pick<RequestCtx, "db" | "config" | "now">;
  input: { keyId: string; service: string; environment: string | null; sig: string };
}): Promise<BadgeView | null> {
  const key = await getBadgeKeyById(deps.db, input.keyId);
  // An unknown key id still costs one HMAC, so timing does not tell the parts apart.
  const expected = signBadge(key?.secret ?? "", key?.workspaceId ?? "", input.service, input.environment);
  if (!isSameSignature(input.sig, expected) || !key) return null;
  const ctx: RequestCtx = { ...deps, actor: { kind: "system", workspaceId: key.workspaceId } };
  try {
    const views = await getServiceBadges({ ctx, input: { name: input.service } });
    const view = views.find((v) => v.environment === input.environment);
    return view ?? { environment: input.environment, label: badgeLabel(input.service, input.environment), version: "", state: "unknown", rule: null, note: null };
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  }
}
