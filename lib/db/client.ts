// The only place that constructs the Prisma client. Queries elsewhere take
// `db` as a parameter.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { log } from "@/lib/log";
import { PrismaClient, type Prisma } from "./generated/client";
import { canPrepareStatements, createStatementNamer } from "./statement-names";

export type Db = PrismaClient;
/** A client or an open transaction: what queries in lib/db/queries take first. */
export type DbTx = Db | Prisma.TransactionClient;
export { Prisma } from "./generated/client";

/** Texts prepared per client (one a process), as Prisma's own engine kept 100 per connection (`statement_cache_size`). */
const STATEMENTS_PREPARED = 100;

/** The pool under a client, for queryRows; a symbol shared by every copy of this module (Next may load it twice). */
const POOL = Symbol.for("driftwatch.db.pool");
type Pooled = { pool: pg.Pool; statementName?: (query: { sql: string }) => string; url: string; generic?: pg.Pool };

/** Connections of the pool for statements planned once (genericPlanRows): its callers' read concurrency. */
const GENERIC_PLAN_CONNECTIONS = 2;
/**
 * Clients made by createDb, as opposed to transactions opened on them; shared by every copy of this
 * module too, or a client made by Next's copy would take Prisma's engine on the direct path.
 */
const CLIENTS: WeakSet<object> = ((globalThis as Record<symbol, WeakSet<object> | undefined>)[Symbol.for("driftwatch.db.clients")] ??= new WeakSet());

export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  // Statements are prepared on each connection, unless PgBouncer shares connections between clients.
  const statementNameGenerator = canPrepareStatements(databaseUrl) ? createStatementNamer({ max: STATEMENTS_PREPARED }) : undefined;
  const pool = watched(new pg.Pool({ connectionString: databaseUrl, max: opts.max ?? 10, connectionTimeoutMillis: 10_000 }));
  const adapter = new PrismaPg(pool, { statementNameGenerator, disposeExternalPool: true });
  const db = new PrismaClient({ adapter });
  Object.defineProperty(db, POOL, { value: { pool, statementName: statementNameGenerator, url: databaseUrl } satisfies Pooled });
  CLIENTS.add(db);
  return db;
}

/**
 * The rows of one statement, sent on the client's own pool without Prisma's query engine, which costs
 * more CPU than the driver's own for a statement with array parameters (a report's write). For
 * hot paths only: values come back as `pg` parses them (bigint as string, timestamptz as Date), and errors
 * are `pg`'s own (lib/db/errors.ts reads both). Not inside a transaction: the statement takes any connection.
 */
export async function queryRows<T>(db: Db, sql: Prisma.Sql): Promise<T[]> {
  const pooled = pooledOf(db);
  const result = await pooled.pool.query<T & pg.QueryResultRow>(statementOf(pooled, sql));
  return result.rows;
}

/**
 * As queryRows, for a hot statement whose planning costs more than running it and whose best plan does
 * not depend on its values: PostgreSQL plans it once per connection (`plan_cache_mode =
 * force_generic_plan`) rather than for each set of values, as it otherwise keeps doing when its
 * estimates favour custom plans (the gate's facts: 0.85 ms to plan, 0.9 ms to run). On a small pool of
 * its own, so no other statement is planned that way. Inside a transaction, or where statements are
 * not prepared (PgBouncer), as statementRows.
 */
export async function genericPlanRows<T>(db: DbTx | SqlTx, sql: Prisma.Sql): Promise<T[]> {
  if (isSqlTx(db) || !CLIENTS.has(db as object)) return statementRows<T>(db, sql);
  const pooled = pooledOf(db as Db);
  if (!pooled.statementName) return queryRows<T>(db as Db, sql);
  pooled.generic ??= watched(new pg.Pool({
    connectionString: pooled.url, max: GENERIC_PLAN_CONNECTIONS, connectionTimeoutMillis: 10_000, options: "-c plan_cache_mode=force_generic_plan",
  }));
  const result = await pooled.generic.query<T & pg.QueryResultRow>(statementOf(pooled, sql));
  return result.rows;
}

/** Statements of a transaction run by sqlTransaction, on its one connection. */
export type SqlTx = {
  rows<T>(sql: Prisma.Sql): Promise<T[]>;
  /** The number of rows the statement wrote. */
  execute(sql: Prisma.Sql): Promise<number>;
};

/**
 * `fn` in a transaction on one of the pool's connections, without Prisma's query engine: for
 * statements that carry megabytes (a first drift evaluation at 8,000 services writes 64,000
 * rows), where the engine cost more than PostgreSQL's own work. Committed when `fn` resolves,
 * rolled back when it throws. `timeoutMs` bounds each statement, waits for locks included.
 */
export async function sqlTransaction<T>(db: Db, fn: (tx: SqlTx) => Promise<T>, opts: { timeoutMs: number }): Promise<T> {
  const pooled = pooledOf(db);
  const client = await pooled.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.max(1, Math.round(opts.timeoutMs))}`);
    const tx: SqlTx = {
      rows: async <R>(sql: Prisma.Sql) => (await client.query<R & pg.QueryResultRow>(statementOf(pooled, sql))).rows,
      execute: async (sql) => (await client.query(statementOf(pooled, sql))).rowCount ?? 0,
    };
    const result = await fn(tx);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    // A connection that cannot even roll back is closed, not handed to the next caller.
    await client.query("ROLLBACK").catch((e: unknown) => (broken = e instanceof Error ? e : new Error(String(e))));
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * The rows of one statement wherever the caller stands: on a client's own pool (queryRows), in an open
 * Prisma transaction, or in a sqlTransaction. One SQL text serves every caller, and a caller that never
 * touches Prisma's models (the CLI's short local commands) never starts its query engine.
 */
export async function statementRows<T>(db: DbTx | SqlTx, sql: Prisma.Sql): Promise<T[]> {
  if (isSqlTx(db)) return db.rows<T>(sql);
  // By identity: a Prisma transaction client passes the client's own properties through, the pool included.
  if (CLIENTS.has(db as object)) return queryRows<T>(db as Db, sql);
  return (db as Prisma.TransactionClient).$queryRaw<T[]>(sql);
}

/** Disconnects the client and ends its pool, which Prisma leaves open when its engine never started. */
export async function closeDb(db: Db): Promise<void> {
  await db.$disconnect();
  const { pool, generic } = pooledOf(db);
  if (!pool.ended) await pool.end();
  if (generic && !generic.ended) await generic.end();
}

/**
 * A pool that survives losing an idle connection (a database restart, a failover, an administrator's
 * pg_terminate_backend): pg emits the error on the pool, which without a listener ends the process.
 * The pool has already dropped the connection; the next statement opens another.
 */
function watched(pool: pg.Pool): pg.Pool {
  pool.on("error", (err: Error & { code?: string }) => log.warn(`database: an idle connection was closed (${err.code ?? err.message}); the next statement reconnects`));
  return pool;
}

function isSqlTx(db: DbTx | SqlTx): db is SqlTx {
  return typeof (db as Partial<SqlTx>).rows === "function" && !("$queryRaw" in db);
}

function pooledOf(db: Db): Pooled {
  const pooled = (db as unknown as Record<symbol, Pooled | undefined>)[POOL];
  if (!pooled) throw new Error("the client was not made by createDb");
  return pooled;
}

/** A statement for pg, prepared on its connection under the client's statement names. */
function statementOf(pooled: Pooled, sql: Prisma.Sql): pg.QueryConfig {
  return { name: pooled.statementName?.({ sql: sql.text }) || undefined, text: sql.text, values: sql.values };
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

/** Closes the process's shared client, if one was made: on shutdown, before the database stops under it. */
export async function closeSharedDb(): Promise<void> {
  const cached = globalForDb.__driftwatchDb;
  globalForDb.__driftwatchDb = undefined;
  if (cached) await closeDb(cached.db);
}
