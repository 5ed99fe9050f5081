// Per-host politeness: a bounded number of requests in flight, and a back-off
// after a 429 (honouring Retry-After) or when Docker Hub's `ratelimit-remaining`
// says no pulls are left. Short back-offs are waited out; long ones fail fast
// with `rate_limited`, so a host is never hammered in a loop.
import { AppError } from "@/lib/domain/errors";

export type RateLimiterOptions = {
  maxConcurrencyPerHost: number;
  now: () => number;
  /** Back-offs up to this long are waited out instead of failing. */
  maxInlineWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
};

export type RateLimiter = {
  /** Waits for a free slot on the host and out of a short back-off; returns the slot's release. */
  acquire(host: string, opts: { isPull: boolean }): Promise<() => void>;
  /** Learns back-off state from a response. */
  observe(host: string, status: number, headers: Headers): void;
};

type HostState = {
  active: number;
  waiting: (() => void)[];
  blockedUntil: number;
  pullsBlockedUntil: number;
};

const DEFAULT_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 24 * 3600_000;
// Docker Hub reports a 6 h sliding window; pulls free up gradually within it.
const MAX_PULL_BLOCK_MS = 3600_000;

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_BACKOFF_MS);
  if (!/[A-Za-z]{3}/.test(trimmed)) return null; // HTTP dates name a day or month
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), MAX_BACKOFF_MS);
}

/** `ratelimit-remaining: 76;w=21600` → {remaining: 76, windowSeconds: 21600}. */
export function parseRateLimitHeader(value: string | null): { remaining: number; windowSeconds: number | null } | null {
  if (value === null) return null;
  const m = /^\s*(\d+)\s*(?:;\s*w\s*=\s*(\d+))?/.exec(value);
  if (!m) return null;
  return { remaining: Number(m[1]), windowSeconds: m[2] === undefined ? null : Number(m[2]) };
}

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const maxInlineWaitMs = opts.maxInlineWaitMs ?? 2_000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const hosts = new Map<string, HostState>();

  function state(host: string): HostState {
    let s = hosts.get(host);
    if (!s) {
      s = { active: 0, waiting: [], blockedUntil: 0, pullsBlockedUntil: 0 };
      hosts.set(host, s);
    }
    return s;
  }

  function release(s: HostState): void {
    const next = s.waiting.shift();
    if (next) next(); // hand the slot over directly
    else s.active--;
  }

  async function takeSlot(s: HostState): Promise<void> {
    if (s.active < opts.maxConcurrencyPerHost) {
      s.active++;
      return;
    }
    await new Promise<void>((resolve) => s.waiting.push(resolve));
  }

  return {
    async acquire(host, { isPull }) {
      const s = state(host);
      await takeSlot(s);
      try {
        for (;;) {
          const until = Math.max(s.blockedUntil, isPull ? s.pullsBlockedUntil : 0);
          const wait = until - opts.now();
          if (wait <= 0) break;
          if (wait > maxInlineWaitMs) {
            throw new AppError("rate_limited", `${host} is rate limiting${isPull && s.pullsBlockedUntil >= until ? " pulls" : ""}; retry in ${Math.ceil(wait / 1000)} s.`, {
              retryAfterSeconds: Math.ceil(wait / 1000),
            });
          }
          await sleep(wait);
        }
      } catch (err) {
        release(s);
        throw err;
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release(s);
      };
    },

    observe(host, status, headers) {
      const s = state(host);
      const now = opts.now();
      const retryAfter = parseRetryAfter(headers.get("retry-after"), now);
      const pulls = parseRateLimitHeader(headers.get("ratelimit-remaining"));
      if (pulls && pulls.remaining > 0) s.pullsBlockedUntil = 0;
      if (pulls && pulls.remaining <= 0) {
        const ms = retryAfter ?? Math.min((pulls.windowSeconds ?? 3600) * 1000, MAX_PULL_BLOCK_MS);
        s.pullsBlockedUntil = Math.max(s.pullsBlockedUntil, now + ms);
      }
      // A 429 that reports an exhausted pull quota blocks pulls only; HEADs still work.
      if (status === 429 && !(pulls && pulls.remaining <= 0)) {
        s.blockedUntil = Math.max(s.blockedUntil, now + (retryAfter ?? DEFAULT_BACKOFF_MS));
      }
    },
  };
}
