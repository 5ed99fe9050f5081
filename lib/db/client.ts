// The only place that constructs the Prisma client. Queries elsewhere take
// `db` as a parameter.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";
import { canPrepareStatements, createStatementNamer } from "./statement-names";

export type Db = PrismaClient;
export { Prisma } from "./generated/client";

/** Texts prepared per client (one a process), as Prisma's own engine kept 100 per connection (`statement_cache_size`). */
const STATEMENTS_PREPARED = 100;

export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  // Statements are prepared on each connection, unless PgBouncer shares connections between clients.
  const statementNameGenerator = canPrepareStatements(databaseUrl) ? createStatementNamer({ max: STATEMENTS_PREPARED }) : undefined;
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10, connectionTimeoutMillis: 10_000 }, { statementNameGenerator });
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
