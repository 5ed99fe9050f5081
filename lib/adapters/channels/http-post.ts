// POST a rendered body to a destination from user settings: guard the URL,
// connect to the checked address, classify the answer. Never throws.
import { AppError } from "@/lib/domain/errors";
import { classifyHttpStatus, parseRetryAfter, type DeliveryResult } from "@/lib/domain/notifications/retry";
import { checkDestination, type Resolve } from "@/lib/net/destination";
import { OutboundRequestError, requestPinned } from "@/lib/net/pinned-request";
import { scrubSecrets } from "./scrub";

export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;

export type GuardedPost = {
  /** POST unless said otherwise (Matrix sends with PUT). */
  method?: "POST" | "PUT" | undefined;
  url: string;
  headers: Record<string, string>;
  body: string;
  now: Date;
  allowPrivate: boolean;
  resolve?: Resolve | undefined;
  timeoutMs?: number | undefined;
  /** Names the receiver in messages ("Webhook", "Slack"). */
  receiver: string;
  /** Values that must never appear in the returned error. */
  secrets: ReadonlyArray<string | undefined>;
  /** A wait the receiver names in its answer's body rather than in Retry-After (Telegram, Discord). */
  retryAfterFromBody?: ((body: string) => number | undefined) | undefined;
};

export async function postGuarded(req: GuardedPost): Promise<DeliveryResult> {
  const fail = (retryable: boolean, error: string, retryAfterSeconds?: number): DeliveryResult => ({
    ok: false,
    retryable,
    error: scrubSecrets(error, req.secrets),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });

  let destination;
  try {
    destination = await checkDestination(req.url, { allowPrivate: req.allowPrivate, resolve: req.resolve });
  } catch (error) {
    if (error instanceof AppError) return fail(error.code !== "invalid_input", `${req.receiver} address refused: ${error.message}`);
    return fail(true, `${req.receiver} address could not be checked.`);
  }

  let response;
  try {
    response = await requestPinned({
      destination,
      method: req.method ?? "POST",
      headers: req.headers,
      body: req.body,
      timeoutMs: req.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof OutboundRequestError) return fail(true, `${req.receiver} delivery failed: ${error.message}`);
    return fail(true, `${req.receiver} delivery failed: ${destination.url.host} could not be reached.`);
  }

  const { status } = response;
  switch (classifyHttpStatus(status)) {
    case "sent":
      return { ok: true };
    case "retryable":
      return fail(
        true,
        `${req.receiver} at ${destination.url.host} answered ${status}.`,
        parseRetryAfter(response.headers["retry-after"], req.now) ?? req.retryAfterFromBody?.(response.body),
      );
    case "permanent":
      return fail(
        false,
        status >= 300 && status < 400
          ? `${req.receiver} at ${destination.url.host} answered ${status} (a redirect); redirects are not followed.`
          : `${req.receiver} at ${destination.url.host} answered ${status}.`,
      );
  }
}

/** The delivery's context fields postGuarded needs. */
type SendTiming = { now: Date; allowPrivate: boolean; resolve?: Resolve | undefined; timeoutMs?: number | undefined };

/** A JSON body to a chat or incident API: the common headers, the delivery's guard and timing. */
export function postJson(
  ctx: SendTiming,
  req: { url: string; body: unknown; receiver: string; secrets: ReadonlyArray<string | undefined>; method?: "POST" | "PUT"; headers?: Record<string, string>; retryAfterFromBody?: (body: string) => number | undefined },
): Promise<DeliveryResult> {
  return postGuarded({
    method: req.method,
    url: req.url,
    headers: { "Content-Type": "application/json", "User-Agent": "Driftwatch", ...req.headers },
    body: JSON.stringify(req.body),
    now: ctx.now, allowPrivate: ctx.allowPrivate, resolve: ctx.resolve, timeoutMs: ctx.timeoutMs,
    receiver: req.receiver,
    secrets: req.secrets,
    retryAfterFromBody: req.retryAfterFromBody,
  });
}

/** A wait named in a JSON answer (`pick` finds it), in seconds or milliseconds; undefined when absent. */
export function jsonRetryAfter(pick: (json: Record<string, unknown>) => unknown, unit: "s" | "ms" = "s"): (body: string) => number | undefined {
  return (body) => {
    try {
      const wait = pick(JSON.parse(body) as Record<string, unknown>);
      return typeof wait === "number" && wait >= 0 ? Math.ceil(unit === "ms" ? wait / 1000 : wait) : undefined;
    } catch {
      return undefined;
    }
  };
}
