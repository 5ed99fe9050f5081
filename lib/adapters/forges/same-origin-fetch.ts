// HTTP for adapters that may talk to one configured origin only (forges, the
// end-of-life source). Redirects are followed by hand within that origin; one
// to any other host is refused before it is requested, credentials included.
import { AppError, type ErrorCode } from "@/lib/domain/errors";

export const MAX_REDIRECTS = 3;
export const DEFAULT_TIMEOUT_MS = 15_000;

export type FetchLike = typeof fetch;

export type SameOriginRequest = {
  url: string;
  /** The only origin (scheme://host:port) that may be requested. */
  allowedOrigin: string;
  headers?: Record<string, string>;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Error code for refusals and network failures (`forge_unavailable`, `unavailable`). */
  errorCode: ErrorCode;
  /** Names the service in error messages ("GitHub", "endoflife.date"). */
  service: string;
};

export type SameOriginResponse = { response: Response; url: string; redirected: boolean };

/** Throw unless `url` is within `allowedOrigin`. */
export function assertSameOrigin(url: string, allowedOrigin: string, errorCode: ErrorCode, service: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError(errorCode, `${service} answered with an invalid address.`);
  }
  if (parsed.origin !== new URL(allowedOrigin).origin) {
    throw new AppError(errorCode, `${service} pointed to another host (${parsed.host}); the request was refused.`);
  }
  return parsed;
}

/** GET (or HEAD) with same-origin redirects followed by hand, at most three. */
export async function fetchSameOrigin(req: SameOriginRequest): Promise<SameOriginResponse> {
  const doFetch = req.fetch ?? fetch;
  let url = assertSameOrigin(req.url, req.allowedOrigin, req.errorCode, req.service).toString();
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await doFetch(url, {
        method: "GET",
        headers: req.headers,
        redirect: "manual",
        signal: AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (cause) {
      const timedOut = cause instanceof Error && (cause.name === "TimeoutError" || cause.name === "AbortError");
      throw new AppError(req.errorCode, `${req.service} ${timedOut ? "did not answer in time" : "could not be reached"}.`, { cause });
    }
    if (![301, 302, 303, 307, 308].includes(response.status)) return { response, url, redirected: hop > 0 };

    await response.body?.cancel();
    const location = response.headers.get("location");
    if (!location) throw new AppError(req.errorCode, `${req.service} answered ${response.status} without a Location.`);
    if (hop >= MAX_REDIRECTS) throw new AppError(req.errorCode, `${req.service} redirected more than ${MAX_REDIRECTS} times.`);
    url = assertSameOrigin(new URL(location, url).toString(), req.allowedOrigin, req.errorCode, req.service).toString();
  }
}

/** The `rel="next"` target of a `Link` header, resolved against the request URL. */
export function nextLink(linkHeader: string | null, base: string): string | null {
  if (!linkHeader) return null;
  for (const part of linkHeader.split(",")) {
    const match = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (!match) continue;
    const params = match[2] ?? "";
    if (/(?:^|;)\s*rel\s*=\s*"?(?:[^";]*\s)?next(?:\s[^";]*)?"?/i.test(params)) {
      try {
        return new URL(match[1] ?? "", base).toString();
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Read a body as JSON; malformed JSON is the service's fault, not a crash. */
export async function readJson(response: Response, errorCode: ErrorCode, service: string): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new AppError(errorCode, `${service} answered with malformed JSON.`, { cause });
  }
}

/** Seconds from a `Retry-After` header (delta seconds or an HTTP date), else null. */
export function retryAfterSeconds(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Math.max(1, Number(trimmed));
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(1, Math.ceil((date - nowMs) / 1000));
}
