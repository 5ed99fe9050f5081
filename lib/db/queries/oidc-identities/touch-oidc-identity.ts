import type { DbTx } from "@/lib/db/client";

export async function touchOidcIdentity(db: DbTx, issuer: string, subject: string, at: Date) {
  await db.oidcIdentity.update({ where: { issuer_subject: { issuer, subject } }, data: { lastSignInAt: at } });
}
