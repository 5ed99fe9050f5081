// The only place that constructs the Prisma client. Queries elsewhere take
// `db` as a parameter.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";

export type Db = PrismaClient;
export { Prisma } from "./generated/client";

export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10, connectionTimeoutMillis: 10_000 });
  return new PrismaClient({ adapter });
}

const globalForDb = globalThis as unknown as { __driftwatchDb?: { url: string; db: Db } };

/** One client per process and URL (route handlers, which Next may load more than once). */
export function getDb(databaseUrl: string): Db {
  const cached = globalForDb.__driftwatchDb;
  if (cached && cached.url === databaseUrl) return cached.db;
  const db = createDb(databaseUrl, { max: 20 });
  globalForDb.__driftwatchDb = { url: databaseUrl, db };
  return db;
}
