// Typed errors thrown by domain and service code; lib/http/problem.ts maps
// each code to an HTTP status and an RFC 9457 body.
import type { z } from "zod";

export const ERROR_CODES = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_input: 422,
  rate_limited: 429,
  internal: 500,
  registry_unavailable: 502,
  forge_unavailable: 502,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export type FieldError = { pointer: string; detail: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, opts: { errors?: FieldError[]; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.errors = opts.errors;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} was not found.`);
export const invalid = (pointer: string, detail: string) =>
  new AppError("invalid_input", detail, { errors: [{ pointer, detail }] });

/** A zod failure as field errors: JSON pointers under `root`, at most 50. */
export function zodErrors(error: z.ZodError, root: "" | "/query" | "/params" = ""): FieldError[] {
  return error.issues.slice(0, 50).map((issue) => ({
    pointer: root + issue.path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join(""),
    detail: issue.message,
  }));
}
