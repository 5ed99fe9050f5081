// AUTH_SECRET when the operator did not set one. Sessions (and Auth.js's
// CSRF cookie) are signed with it, so every web server that answers one user
// must hold the same value:
//   - embedded database: generated once and kept in the data directory, which
//     every process using that database shares;
//   - external database (DATABASE_URL): kept in the database itself, so any
//     number of `driftwatch start` processes, each with its own data
//     directory, agree on it. The first server to start stores it (seeded from
//     its data directory's secret when it has one, so an existing server's
//     sessions stay valid); the others read it.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { closeDb, createDb, type Db } from "@/lib/db/client";

/** The `cache_entries` row that holds the shared secret. Not a cache: never expire or prune it. */
export const SHARED_AUTH_SECRET_KEY = "secret:auth";

const MIN_LENGTH = 32;

async function readSecretFile(file: string): Promise<string | null> {
  const existing = await fs.readFile(file, "utf8").catch(() => null);
  return existing && existing.trim().length >= MIN_LENGTH ? existing.trim() : null;
}

export async function ensureAuthSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "auth-secret");
  const existing = await readSecretFile(file);
  if (existing) return existing;
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

/** The secret every process on this database shares: stored by the first caller, read by the rest. */
export async function ensureSharedAuthSecret(db: Db, seed: string): Promise<string> {
  await db.$executeRaw`
    INSERT INTO cache_entries (key, value, fetched_at) VALUES (${SHARED_AUTH_SECRET_KEY}, to_jsonb(${seed}::text), now())
    ON CONFLICT (key) DO NOTHING`;
  const [row] = await db.$queryRaw<{ secret: string | null }[]>`
    SELECT value #>> '{}' AS secret FROM cache_entries WHERE key = ${SHARED_AUTH_SECRET_KEY}`;
  const secret = row?.secret ?? null;
  if (secret === null || secret.length < MIN_LENGTH) throw new Error(`the shared session secret stored in the database is unusable; delete the cache_entries row '${SHARED_AUTH_SECRET_KEY}' or set AUTH_SECRET`);
  return secret;
}

/** AUTH_SECRET for `driftwatch start`: the configured one, else the data directory's (embedded) or the database's (external). */
export async function resolveAuthSecret(opts: { configured: string | undefined; dataDir: string; databaseUrl: string; embedded: boolean }): Promise<string> {
  if (opts.configured) return opts.configured;
  if (opts.embedded) return ensureAuthSecret(opts.dataDir);
  const seed = (await readSecretFile(path.join(opts.dataDir, "auth-secret"))) ?? randomBytes(48).toString("base64url");
  const db = createDb(opts.databaseUrl, { max: 1 });
  try {
    return await ensureSharedAuthSecret(db, seed);
  } finally {
    await closeDb(db);
  }
}
