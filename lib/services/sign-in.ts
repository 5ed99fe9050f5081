// Password sign-in with brute-force protection: after 5 failures for one
// e-mail (or 20 from one address) within 15 minutes, answer rate_limited.
import type { Db } from "@/lib/db/client";
import { hashPassword, verifyPassword } from "@/lib/auth/password";

const WINDOW_MS = 15 * 60_000;
const PER_EMAIL = 5;
const PER_IP = 20;

export type SignInResult =
  | { kind: "ok"; user: { id: string; email: string; name: string | null } }
  | { kind: "invalid" }
  | { kind: "rate_limited" };

// Verifying against a real hash when the user is unknown keeps timing equal.
let dummyHash: Promise<string> | undefined;

export async function signInWithPassword(
  { db, now }: { db: Db; now: () => Date },
  input: { email: string; password: string; ip: string },
): Promise<SignInResult> {
  const since = new Date(now().getTime() - WINDOW_MS);
  const [byEmail, byIp] = await Promise.all([
    db.loginAttempt.count({ where: { key: `email:${input.email}`, at: { gte: since } } }),
    db.loginAttempt.count({ where: { key: `ip:${input.ip}`, at: { gte: since } } }),
  ]);
  if (byEmail >= PER_EMAIL || byIp >= PER_IP) return { kind: "rate_limited" };

  const user = await db.user.findUnique({ where: { email: input.email } });
  dummyHash ??= hashPassword("not-a-real-password");
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password);
  if (!user || !ok) {
    await db.loginAttempt.createMany({
      data: [{ key: `email:${input.email}`, at: now() }, { key: `ip:${input.ip}`, at: now() }],
    });
    return { kind: "invalid" };
  }
  await db.loginAttempt.deleteMany({ where: { key: `email:${input.email}` } });
  return { kind: "ok", user: { id: user.id, email: user.email, name: user.name } };
}
