// Passwords are hashed with Argon2id (OWASP's first choice).
import { hash, verify } from "@node-rs/argon2";

export const MIN_PASSWORD_LENGTH = 8;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

/** False for a person without a password (they sign in through single sign-on). */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
