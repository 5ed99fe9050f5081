// Password sign-in with brute-force protection: after 5 failures for one
// e-mail (or 20 from one address) within 15 minutes, answer rate_limited with
// how long to wait. Failures are rows in login_attempts, so every web server
// sharing the database counts the same attempts.
import { createLoginFailures } from "@/lib/db/queries/sessions/create-login-failures";
import { deleteLoginFailures } from "@/lib/db/queries/sessions/delete-login-failures";
import { listRecentLoginFailures } from "@/lib/db/queries/sessions/list-recent-login-failures";
import { getUserByEmail } from "@/lib/db/queries/users/get-user-by-email";
import type { Db } from "@/lib/db/client";
import { hashPassword, verifyPassword } from "@/lib/auth/password";

const WINDOW_MS = 15 * 60_000;
const PER_EMAIL = 5;
const PER_IP = 20;

export type SignInResult =
  | { kind: "ok"; user: { id: string; email: string; name: string | null } }
  | { kind: "invalid" }
  | { kind: "rate_limited"; retryAfterSeconds: number };

/** `now`: the request's time, read once. */
type Deps = { db: Db; now: Date };

// Verifying against a real hash when the user is unknown keeps timing equal.
let dummyHash: Promise<string> | undefined;

/** Seconds until the `limit`-th newest failure for `key` leaves the window, or 0 when under the limit. */
async function waitFor(db: Db, key: string, limit: number, now: Date): Promise<number> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const recent = await listRecentLoginFailures(db, key, since, limit);
  if (recent.length < limit) return 0;
  return Math.max(1, Math.ceil((recent[limit - 1]!.getTime() + WINDOW_MS - now.getTime()) / 1000));
}

/** Whether this e-mail or address must wait before trying again (0: may try now). */
export async function signInRetryAfter({ db, now }: Deps, input: { email: string; ip: string }): Promise<number> {
  const [byEmail, byIp] = await Promise.all([waitFor(db, `email:${input.email}`, PER_EMAIL, now), waitFor(db, `ip:${input.ip}`, PER_IP, now)]);
  return Math.max(byEmail, byIp);
}

export async function signInWithPassword({ db, now }: Deps, input: { email: string; password: string; ip: string }): Promise<SignInResult> {
  const retryAfterSeconds = await signInRetryAfter({ db, now }, input);
  if (retryAfterSeconds > 0) return { kind: "rate_limited", retryAfterSeconds };

  const user = await getUserByEmail(db, input.email);
  dummyHash ??= hashPassword("not-a-real-password");
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password);
  if (!user || !ok) {
    await createLoginFailures(db, [`email:${input.email}`, `ip:${input.ip}`], now);
    return { kind: "invalid" };
  }
  await deleteLoginFailures(db, `email:${input.email}`);
  return { kind: "ok", user: { id: user.id, email: user.email, name: user.name } };
}
