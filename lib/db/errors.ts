// What a failed query says about the database, however it arrived: wrapped by
// the Prisma client, raw from its pg adapter (inside an interactive
// transaction), or straight from `pg` (queryRows).
import pg from "pg";

type DriverCause = { kind?: string; originalCode?: string; code?: string };

function driverCause(err: unknown): DriverCause | null {
  if (err instanceof pg.DatabaseError) return { kind: "postgres", originalCode: err.code };
  const e = err as { meta?: { driverAdapterError?: { cause?: DriverCause } }; name?: string; cause?: DriverCause } | null;
  return e?.meta?.driverAdapterError?.cause ?? (e?.name === "DriverAdapterError" ? (e.cause ?? null) : null);
}

/** PostgreSQL's SQLSTATE for the failure ("40P01", "23505"…), or "" when it did not come from the server. */
export function sqlStateOf(err: unknown): string {
  const cause = driverCause(err);
  return cause?.originalCode ?? cause?.code ?? "";
}

/** What `pg` throws when it has no connection to the server (before any SQLSTATE). */
const LOST_CONNECTION = /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND)$/;
/** The messages of a lost or refused connection, from pg, pg-pool or the server, however they are wrapped. */
export const LOST_CONNECTION_MESSAGE = /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|is not queryable|too many clients|timeout exceeded when trying to connect/i;

/**
 * The database went away or is not taking work yet (a restart, a failover, the connection limit): an
 * unreachable or closed connection, SQLSTATE class 08, or 57P01-57P03 (shutting down, starting up),
 * 53300 (too many connections).
 */
export function databaseUnreachable(err: unknown): boolean {
  const cause = driverCause(err);
  if (!cause) {
    if (!(err instanceof Error) || "meta" in err) return false;
    return LOST_CONNECTION.test(String((err as { code?: unknown }).code ?? "")) || LOST_CONNECTION_MESSAGE.test(err.message);
  }
  if (cause.kind === "DatabaseNotReachable" || cause.kind === "ConnectionClosed" || cause.kind === "SocketTimeout" || cause.kind === "TooManyConnections") return true;
  return /^08|^57P0[123]$|^53300$/.test(sqlStateOf(err));
}
