// A failed registry request as one line a user understands ("registry-1.docker.io:
// name not resolved"). The registry adapter throws AppErrors with a code
// (forbidden, not_found, rate_limited, registry_unavailable) whose message
// names the request, and keeps the network error (ENOTFOUND, a TLS code) as
// its cause; this reads those without importing the adapter.
import { AppError } from "@/lib/domain/errors";

export type RegistryFailure = {
  /** The host that failed: the request's own host when the message names it, else the repository's. */
  host: string;
  /** The AppError code; null for an error that is not one. */
  code: string | null;
  /** HTTP status the registry answered, when it answered. */
  status: number | null;
  /** System and TLS codes along the cause chain: ENOTFOUND, ECONNREFUSED, CERT_HAS_EXPIRED … */
  causeCodes: readonly string[];
  message: string;
  retryAfterSeconds: number | null;
};

const MAX_CAUSES = 5;

/** The parts of a thrown error that describeRegistryFailure reads; `host` is the repository's registry host. */
export function registryFailureOf(host: string, error: unknown): RegistryFailure {
  const message = error instanceof Error ? error.message : String(error);
  const causeCodes: string[] = [];
  let cause: unknown = error;
  for (let i = 0; i < MAX_CAUSES && cause !== null && typeof cause === "object"; i++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && !(cause instanceof AppError)) causeCodes.push(code);
    const name = (cause as { name?: unknown }).name;
    if (name === "TimeoutError") causeCodes.push("ETIMEDOUT");
    cause = (cause as { cause?: unknown }).cause;
  }
  return {
    host: requestHostOf(message) ?? host,
    code: error instanceof AppError ? error.code : null,
    status: statusOf(message),
    causeCodes,
    message,
    retryAfterSeconds: error instanceof AppError ? (error.retryAfterSeconds ?? null) : null,
  };
}

/** `GET registry-1.docker.io/v2/…: …`, `ghcr.io answered 429 …`, `refusing http://host: …` → the host. */
function requestHostOf(message: string): string | null {
  const m = /^(?:(?:GET|HEAD) |refusing [a-z]+:\/\/)?([a-z0-9.-]+(?::\d{1,5})?)(?:\/|:\s| answered )/i.exec(message);
  const host = m?.[1];
  if (host === undefined) return null;
  return host.includes(".") || host.includes(":") || host === "localhost" ? host : null;
}

function statusOf(message: string): number | null {
  const m = /(?:access denied \((\d{3})\)|registry answered (\d{3})|answered (\d{3}) )/.exec(message);
  const raw = m?.[1] ?? m?.[2] ?? m?.[3];
  return raw === undefined ? null : Number(raw);
}

const NETWORK_WORDS: Readonly<Record<string, string>> = {
  ENOTFOUND: "name not resolved",
  EAI_AGAIN: "name not resolved",
  EAI_NONAME: "name not resolved",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection closed by the registry",
  UND_ERR_SOCKET: "connection closed by the registry",
  EPIPE: "connection closed by the registry",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "no answer (timed out)",
  UND_ERR_CONNECT_TIMEOUT: "no answer (timed out)",
  UND_ERR_HEADERS_TIMEOUT: "no answer (timed out)",
  UND_ERR_BODY_TIMEOUT: "no answer (timed out)",
  CERT_HAS_EXPIRED: "TLS certificate expired",
  CERT_NOT_YET_VALID: "TLS certificate not valid yet",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS certificate not trusted (self-signed)",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS certificate not trusted (self-signed)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS certificate not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS certificate not trusted",
  UNABLE_TO_GET_ISSUER_CERT: "TLS certificate not trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS certificate is for another name",
};

/** One line for a failed check: what went wrong and, where the user can act, what to do. */
export function describeRegistryFailure(f: RegistryFailure): string {
  for (const code of f.causeCodes) {
    const words = NETWORK_WORDS[code] ?? (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_") ? "TLS handshake failed" : undefined);
    if (words !== undefined) return `${f.host}: ${words}`;
  }
  const status = f.status;
  switch (f.code) {
    case "forbidden":
      return `${status ?? 401} from ${f.host}: private repository, check it with an agent`;
    case "not_found":
      return `404 from ${f.host}: repository not found`;
    case "rate_limited":
      return `429 from ${f.host}: rate limited${f.retryAfterSeconds === null ? "" : `, retrying in ${waitWords(f.retryAfterSeconds)}`}`;
    default:
      break;
  }
  if (status !== null && status >= 500) return `${status} from ${f.host}: registry error, retrying`;
  if (status !== null) return `${status} from ${f.host}: unexpected answer`;
  if (/no answer within|timed? ?out/i.test(f.message)) return `${f.host}: no answer (timed out)`;
  if (/malformed response/.test(f.message)) return `${f.host}: malformed response`;
  if (/^refusing http:/.test(f.message)) return `${f.host}: plain http refused; list the host in DRIFTWATCH_INSECURE_REGISTRIES`;
  if (/listed no tags/.test(f.message)) return `${f.host}: listed no tags; the stored list is kept`;
  return `${f.host}: ${shorten(withoutRequest(f.message))}`;
}

function waitWords(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** `GET host/v2/x/tags/list: request failed (…)` → `request failed (…)`. */
function withoutRequest(message: string): string {
  const m = /^(?:GET|HEAD) \S+: (.*)$/s.exec(message);
  return (m?.[1] ?? message).split(/\r?\n/, 1)[0] ?? "";
}

function shorten(text: string): string {
  const t = text.trim();
  return t.length > 160 ? `${t.slice(0, 159)}…` : t === "" ? "check failed" : t;
}
