// Insight results are costly (whole-workspace reads and months of history) and
// asked for often. A result is reused by every request whose view of the
// database it includes: one computed at PostgreSQL's WAL insert position P
// answers requests that read a position at or before P. Past a TTL it is
// recomputed in the background, since waiting times and windows move with the
// clock. A key is computed once at a time: requests at a newer position than a
// running computation wait for it and then share one follow-up, so a burst of
// writes under load never starts a computation per request.
import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import type { Ctx } from "../context";

export const INSIGHTS_CACHE_TTL_MS = 30_000;
// Whole-workspace results can be megabytes: keep few.
const MAX_ENTRIES = 64;

type Entry = { lsn: bigint; at: number; value: Promise<unknown>; refreshing: boolean };
type Running = { lsn: bigint; value: Promise<unknown> };

const g = globalThis as unknown as {
  __driftwatchInsightsCache?: { entries: Map<string, Entry>; running: Map<string, Running>; waiting: Map<string, bigint> };
};
// On globalThis: Next's bundle and the server's direct API path (lib/server/api-dispatch.ts) share one cache.
const state = (g.__driftwatchInsightsCache ??= { entries: new Map(), running: new Map(), waiting: new Map() });
const { entries, running, waiting } = state;

let hasWarned = false;

/** `X/Y` (two hexadecimal halves) as one ordered number. */
export function lsnValue(text: string): bigint {
  const [hi, lo] = text.split("/");
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** The WAL insert position, or null where it cannot be read (a standby): then nothing is reused. */
async function currentLsn(db: Db): Promise<bigint | null> {
  try {
    const [row] = await db.$queryRaw<{ lsn: string }[]>`SELECT pg_current_wal_insert_lsn()::text AS lsn`;
    return row ? lsnValue(row.lsn) : null;
  } catch (err) {
    if (!hasWarned) log.warn(`insights are not cached: the WAL position cannot be read (${String(err)})`);
    hasWarned = true;
    return null;
  }
}

/**
 * `compute()`, or a result computed at or after the database position this
 * request read (`ctx.snapshot`, else now). Past `ttlMs` that result is still
 * answered while a fresh one is computed.
 */
export async function cachedInsight<T>(
  ctx: Pick<Ctx, "db" | "now" | "snapshot">,
  key: string,
  compute: () => Promise<T>,
  ttlMs = INSIGHTS_CACHE_TTL_MS,
): Promise<T> {
  // Read before computing: a change made while computing moves the position, so the next request recomputes.
  const lsn = ctx.snapshot ? lsnValue(ctx.snapshot) : await currentLsn(ctx.db);
  if (lsn === null) return compute();
  for (;;) {
    const now = ctx.now().getTime();
    const hit = entries.get(key);
    if (hit !== undefined && hit.lsn >= lsn) {
      if (now - hit.at >= ttlMs && !hit.refreshing && !running.has(key)) {
        hit.refreshing = true;
        void start(ctx, key, compute, hit.lsn).catch(() => (hit.refreshing = false));
      }
      return hit.value as Promise<T>;
    }
    const current = running.get(key);
    if (current === undefined) {
      // The first of the requests that waited starts one computation for all of them: it reads the
      // database after every one of them read its position, so it is labelled with the newest.
      const waited = waiting.get(key);
      waiting.delete(key);
      return start(ctx, key, compute, waited !== undefined && waited > lsn ? waited : lsn);
    }
    if (current.lsn >= lsn) return current.value as Promise<T>;
    // A computation from before this request's position is running: wait, then look again.
    waiting.set(key, (waiting.get(key) ?? 0n) > lsn ? waiting.get(key)! : lsn);
    await current.value.catch(() => undefined);
  }
}

/**
 * Computes `key` as the only computation of it. Read at `atLeast` or later:
 * a follow-up started for waiters reads the position again, which covers them all.
 */
async function start<T>(ctx: Pick<Ctx, "db" | "now">, key: string, compute: () => Promise<T>, atLeast: bigint): Promise<T> {
  const at = ctx.now().getTime();
  const value = compute();
  const run: Running = { lsn: atLeast, value };
  running.set(key, run);
  try {
    const result = await value;
    store(key, { lsn: atLeast, at, value, refreshing: false });
    return result;
  } finally {
    if (running.get(key) === run) running.delete(key);
  }
}

function store(key: string, entry: Entry): void {
  const current = entries.get(key);
  if (current !== undefined && current.lsn > entry.lsn) return; // a newer state got there first
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
