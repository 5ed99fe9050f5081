// Insight results are costly (whole-workspace reads and months of history) and
// asked for often. A result is reused while the database has not changed since
// it was computed (PostgreSQL's WAL insert position is the same); past a TTL
// it is recomputed in the background, since waiting times and windows move
// with the clock. Concurrent requests for the same result share one computation.
import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import type { Ctx } from "../context";

export const INSIGHTS_CACHE_TTL_MS = 30_000;
// Whole-workspace results can be megabytes: keep few.
const MAX_ENTRIES = 64;

type Entry = { lsn: string; at: number; value: Promise<unknown>; refreshing: boolean };

const g = globalThis as unknown as { __driftwatchInsightsCache?: Map<string, Entry> };
const entries = (g.__driftwatchInsightsCache ??= new Map());

let hasWarned = false;

/** The WAL insert position, or null where it cannot be read (a standby): then nothing is reused. */
async function currentLsn(db: Db): Promise<string | null> {
  try {
    const [row] = await db.$queryRaw<{ lsn: string }[]>`SELECT pg_current_wal_insert_lsn()::text AS lsn`;
    return row?.lsn ?? null;
  } catch (err) {
    if (!hasWarned) log.warn(`insights are not cached: the WAL position cannot be read (${String(err)})`);
    hasWarned = true;
    return null;
  }
}

/**
 * `compute()`, or the result computed under the same database state. Past
 * `ttlMs` that result is still answered while a fresh one is computed.
 */
export async function cachedInsight<T>(
  ctx: Pick<Ctx, "db" | "now" | "snapshot">,
  key: string,
  compute: () => Promise<T>,
  ttlMs = INSIGHTS_CACHE_TTL_MS,
): Promise<T> {
  // Read before computing: a change made while computing moves the position, so the next request recomputes.
  const lsn = ctx.snapshot ?? (await currentLsn(ctx.db));
  if (lsn === null) return compute();
  const now = ctx.now().getTime();
  const hit = entries.get(key);
  if (hit !== undefined && hit.lsn === lsn) {
    if (now - hit.at >= ttlMs && !hit.refreshing) {
      hit.refreshing = true;
      const value = compute();
      value.then(() => store(key, { lsn, at: now, value, refreshing: false }), () => (hit.refreshing = false));
    }
    return hit.value as Promise<T>;
  }
  const value = compute();
  const entry: Entry = { lsn, at: now, value, refreshing: false };
  store(key, entry);
  value.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  return value;
}

function store(key: string, entry: Entry): void {
  const current = entries.get(key);
  if (current !== undefined && current.lsn !== entry.lsn && current.at > entry.at) return; // a newer state got there first
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
}

const serialized = new WeakMap<object, Uint8Array>();
const bodies = new WeakMap<Response, Uint8Array>();

/** A JSON response whose body is serialised and UTF-8 encoded once per cached result, not once per request. */
export function jsonResponse(value: object): Response {
  let body = serialized.get(value);
  if (body === undefined) {
    body = new TextEncoder().encode(JSON.stringify(value));
    serialized.set(value, body);
  }
  // A stream of the shared bytes: a Uint8Array body would be copied into every Response (megabytes for a whole-fleet matrix).
  const shared = body;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(shared);
      controller.close();
    },
  });
  const response = new Response(stream, {
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-store", "content-length": String(body.byteLength) },
  });
  bodies.set(response, body);
  return response;
}

/**
 * The shared bytes of a jsonResponse() answer: the server sends (and
 * compresses, once) them without reading the response's stream.
 */
export function cachedBodyOf(response: Response): Uint8Array | undefined {
  return bodies.get(response);
}
