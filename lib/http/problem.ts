// RFC 9457 problem details: the one writer of every error answer, whether a
// route handler returns it, the Node server sends it before Next.js runs, or
// Node refuses the request before any handler sees it.
import http from "node:http";
import { PROBLEM_CONTENT_TYPE, type Problem } from "@/lib/api/problem";
import { databaseUnreachable, LOST_CONNECTION_MESSAGE } from "@/lib/db/errors";
import { AppError, ERROR_CODES, type ErrorCode, type FieldError } from "@/lib/domain/errors";
import { log } from "@/lib/log";

// Services import zodErrors from here until they take it from the domain.
export { zodErrors } from "@/lib/domain/errors";

const TITLES: Record<ErrorCode, string> = {
  bad_request: "Bad request",
  unauthenticated: "Authentication required",
  forbidden: "Forbidden",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  request_timeout: "Request timeout",
  conflict: "Conflict",
  payload_too_large: "Payload too large",
  unsupported_media_type: "Unsupported media type",
  invalid_input: "Invalid input",
  rate_limited: "Too many requests",
  headers_too_large: "Request header fields too large",
  internal: "Internal error",
  registry_unavailable: "Registry unavailable",
  forge_unavailable: "Forge unavailable",
  unavailable: "Service unavailable",
};

export const INTERNAL_ERROR_DETAIL = "Something went wrong on our side. The error was logged.";

export function problemBody(code: ErrorCode, detail: string, errors?: FieldError[]): Problem {
  return {
    type: `urn:driftwatch:problem:${code}`,
    title: TITLES[code],
    status: ERROR_CODES[code],
    detail,
    code,
    ...(errors && errors.length ? { errors } : {}),
  };
}

type ProblemOptions = { errors?: FieldError[]; headers?: Record<string, string> };

/** Status, headers and bytes of a problem answer: what every way of sending one sends. */
function problemAnswer(code: ErrorCode, detail: string, opts: ProblemOptions): { status: number; headers: Record<string, string>; text: string } {
  const body = problemBody(code, detail, opts.errors);
  return { status: body.status, headers: { "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store", ...opts.headers }, text: JSON.stringify(body) };
}

export function problemResponse(code: ErrorCode, detail: string, opts: ProblemOptions = {}): Response {
  const { status, headers, text } = problemAnswer(code, detail, opts);
  return new Response(text, { status, headers });
}

/** The same answer on Node's response, for the server's checks before Next.js; no body for HEAD. */
export function writeProblem(res: http.ServerResponse, code: ErrorCode, detail: string, opts: ProblemOptions & { head?: boolean } = {}): void {
  const { status, headers, text } = problemAnswer(code, detail, opts);
  res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(text) });
  res.end(opts.head ? undefined : text);
}

/** The same answer as raw HTTP/1.1, for a socket Node refused to parse; the connection closes after it. */
export function rawProblem(code: ErrorCode, detail: string): string {
  const { status, headers, text } = problemAnswer(code, detail, {});
  const lines = Object.entries({ ...headers, "content-length": String(Buffer.byteLength(text)), connection: "close" }).map(([k, v]) => `${k}: ${v}`);
  return [`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`, ...lines, "", text].join("\r\n");
}

/** Any thrown value → a problem response. Unknown errors are logged and answered with a generic 500. */
export function errorToResponse(err: unknown): Response {
  if (err instanceof AppError) {
    const headers: Record<string, string> = {};
    if (err.retryAfterSeconds !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(err.retryAfterSeconds)));
    return problemResponse(err.code, err.message, { errors: err.errors, headers });
  }
  const e = err as { code?: string; message?: string };
  // Prisma unique violation and record-not-found reach here when a service did not translate them.
  if (e?.code === "P2002") return problemResponse("conflict", "An object with that name already exists.");
  if (e?.code === "P2025") return problemResponse("not_found", "The object was not found.");
  // No database connection within the wait: overload or a database restart. Clients retry.
  if (e?.code === "P2028" || e?.code === "P1001" || e?.code === "P1017" || databaseUnreachable(err) || LOST_CONNECTION_MESSAGE.test(String(e?.message))) {
    log.warn("database busy or unreachable", { error: String(e?.message).slice(0, 200) });
    return problemResponse("unavailable", "The database is busy or unreachable; retry shortly.", { headers: { "retry-after": "2" } });
  }
  log.error("unhandled error in request", { error: String(e?.message ?? err), stack: (err as Error)?.stack?.split("\n").slice(0, 6).join(" | ") });
  return problemResponse("internal", INTERNAL_ERROR_DETAIL);
}
