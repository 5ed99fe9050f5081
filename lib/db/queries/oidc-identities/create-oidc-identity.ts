import type { DbTx } from "@/lib/db/client";

export async function createOidcIdentity(db: DbTx, data: { issuer: string; subject: string; userId: string; at: Date }) {
  await db.oidcIdentity.create({ data: { issuer: data.issuer, subject: data.subject, userId: data.userId, createdAt: data.at, lastSignInAt: data.at } });
}
