// Named (server-side prepared) statements: PostgreSQL parses, analyses and
// plans a named statement once per connection instead of on every execution,
// which is most of the database's work for a small write such as a report.
import { createHash } from "node:crypto";

/**
 * False behind PgBouncer in transaction mode, where a connection's prepared
 * statements are not the client's: Prisma's convention, `pgbouncer=true` in the URL.
 */
export function canPrepareStatements(databaseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return true;
  }
  return url.searchParams.get("pgbouncer")?.toLowerCase() !== "true";
}

/**
 * Names a statement (so it is prepared) from the second time its text is sent,
 * for at most `max` texts per process. Prisma writes `IN ($1,$2,…)` with one
 * parameter per value, so texts are not a bounded set: one-off texts, and any
 * beyond the limit, run unnamed (""), as every statement did before.
 */
export function createStatementNamer(opts: { max: number; seenLimit?: number } = { max: 100 }): (query: { sql: string }) => string {
  const named = new Set<string>();
  const seen = new Set<string>();
  const seenLimit = opts.seenLimit ?? 10_000;
  return ({ sql }) => {
    const key = createHash("sha1").update(sql).digest("base64url");
    if (named.has(key)) return `dw_${key}`;
    if (named.size >= opts.max) return "";
    if (!seen.has(key)) {
      if (seen.size >= seenLimit) seen.clear();
      seen.add(key);
      return "";
    }
    seen.delete(key);
    named.add(key);
    return `dw_${key}`;
  };
}
