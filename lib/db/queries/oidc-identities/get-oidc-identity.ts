import type { DbTx } from "@/lib/db/client";

/** The person an OpenID Connect account belongs to, or null the first time it signs in. */
export async function getOidcIdentity(db: DbTx, issuer: string, subject: string) {
  return db.oidcIdentity.findUnique({
    where: { issuer_subject: { issuer, subject } },
    include: { user: { select: { id: true, email: true, name: true } } },
  });
}
