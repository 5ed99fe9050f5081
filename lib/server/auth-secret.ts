// AUTH_SECRET when the operator did not set one: generated once and kept in
// the data directory, so sessions survive restarts and are shared by every
// process that shares the directory.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

export async function ensureAuthSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "auth-secret");
  const existing = await fs.readFile(file, "utf8").catch(() => null);
  if (existing && existing.trim().length >= 32) return existing.trim();
  await fs.mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  try {
    // wx: if another process wrote it first, use theirs.
    await fs.writeFile(file, secret + "\n", { mode: 0o600, flag: "wx" });
    return secret;
  } catch {
    return (await fs.readFile(file, "utf8")).trim();
  }
}
