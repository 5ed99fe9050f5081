// Single sign-on: an OpenID Connect account (issuer + subject) maps to one
// user. The first sign-in creates the user and joins the configured
// workspace, or links a person who already has an account with the same
// e-mail when the provider has verified that e-mail; an unverified e-mail
// never takes over an account. Roles come from the groups claim when a
// mapping is configured; owners are never changed by it.
import { z } from "zod";
import type { OidcConfig } from "@/lib/config";
import { createAuditEntry } from "@/lib/db/queries/audit/create-audit-entry";
import { createMembership } from "@/lib/db/queries/members/create-membership";
import { getMembership } from "@/lib/db/queries/members/get-membership";
import { listMembershipsOfUser } from "@/lib/db/queries/members/list-memberships-of-user";
import { updateMembershipRole } from "@/lib/db/queries/members/update-membership-role";
import { createOidcIdentity } from "@/lib/db/queries/oidc-identities/create-oidc-identity";
import { getOidcIdentity } from "@/lib/db/queries/oidc-identities/get-oidc-identity";
import { touchOidcIdentity } from "@/lib/db/queries/oidc-identities/touch-oidc-identity";
import { createUser } from "@/lib/db/queries/users/create-user";
import { getUserByEmail } from "@/lib/db/queries/users/get-user-by-email";
import { getWorkspaceByName } from "@/lib/db/queries/workspaces/get-workspace-by-name";
import { groupsInClaim, roleFromGroups } from "@/lib/auth/oidc-roles";
import type { TickCtx } from "../context";

/** The verified ID token's claims that matter here. */
export const oidcSignInSchema = z.object({
  iss: z.string().min(1),
  sub: z.string().min(1).max(255),
  email: z.string().trim().toLowerCase().email().max(320).optional().catch(undefined),
  email_verified: z.boolean().optional().catch(undefined),
  name: z.string().trim().max(200).optional().catch(undefined),
}).passthrough();

export type OidcRefusal =
  /** The provider sent no usable e-mail address for a new person. */
  | "no_email"
  /** A user with this e-mail exists and the provider has not verified the e-mail. */
  | "email_taken"
  /** Unknown person and no DRIFTWATCH_OIDC_WORKSPACE to join. */
  | "no_workspace"
  /** DRIFTWATCH_OIDC_WORKSPACE names no workspace. */
  | "workspace_missing"
  /** Known person who is a member of no workspace any more. */
  | "no_membership";

export type OidcSignInResult =
  | { kind: "ok"; user: { id: string; email: string; name: string | null } }
  | { kind: "refused"; reason: OidcRefusal };

type OidcCtx = Pick<TickCtx, "db" | "now"> & { oidc: OidcConfig };

export async function signInWithOidc({ ctx, input }: { ctx: OidcCtx; input: unknown }): Promise<OidcSignInResult> {
  const claims = oidcSignInSchema.parse(input);
  const { oidc, now } = ctx;
  const groups = groupsInClaim(claims[oidc.groupsClaim]);
  const role = roleFromGroups({ groups, mapping: oidc.groupRoles, fallback: oidc.role });
  const auditActor = `oidc:${claims.iss}`;

  try {
    return await ctx.db.$transaction(async (tx) => {
      const identity = await getOidcIdentity(tx, claims.iss, claims.sub);
      let user = identity?.user ?? null;
      if (identity) {
        await touchOidcIdentity(tx, claims.iss, claims.sub, now);
      } else {
        if (!claims.email) return refused("no_email");
        const existing = await getUserByEmail(tx, claims.email);
        if (existing && claims.email_verified !== true) return refused("email_taken");
        if (!existing && !oidc.workspace) return refused("no_workspace");
        user = existing ?? (await createUser(tx, { email: claims.email, passwordHash: null, name: claims.name ?? null }));
        await createOidcIdentity(tx, { issuer: claims.iss, subject: claims.sub, userId: user.id, at: now });
      }
      const u = user!;

      const workspace = oidc.workspace ? await getWorkspaceByName(tx, oidc.workspace) : null;
      if (oidc.workspace && !workspace && !identity) return refused("workspace_missing");
      if (workspace) {
        const membership = await getMembership(tx, workspace.id, u.id);
        // Joining happens with the account's first sign-in only: someone an admin removed stays removed.
        if (!membership && !identity) {
          await createMembership(tx, { workspaceId: workspace.id, userId: u.id, role });
          await createAuditEntry(tx, { workspaceId: workspace.id, actor: auditActor, action: "member.added", subject: u.email, data: { role } });
        } else if (membership && membership.role !== "owner" && oidc.groupRoles.size > 0 && membership.role !== role) {
          await updateMembershipRole(tx, workspace.id, u.id, role);
          await createAuditEntry(tx, { workspaceId: workspace.id, actor: auditActor, action: "member.role_changed", subject: u.email, data: { from: membership.role, to: role } });
        }
      }
      if ((await listMembershipsOfUser(tx, u.id)).length === 0) return refused("no_membership");
      return { kind: "ok" as const, user: { id: u.id, email: u.email, name: u.name } };
    });
  } catch (err) {
    if (err instanceof Refused) return { kind: "refused", reason: err.reason };
    throw err;
  }
}

// A refusal rolls back whatever the transaction wrote: nothing is kept for someone who may not sign in.
class Refused extends Error {
  constructor(readonly reason: OidcRefusal) {
    super(reason);
  }
}

function refused(reason: OidcRefusal): never {
  throw new Refused(reason);
}
