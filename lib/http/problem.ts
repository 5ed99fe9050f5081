// RFC 9457 problem details: the one shape of every error response.
import { z } from "zod";
import { AppError, ERROR_CODES, type ErrorCode, type FieldError } from "@/lib/domain/errors";
import { log } from "@/lib/log";
import { databaseUnreachable, LOST_CONNECTION_MESSAGE } from "@/lib/db/errors";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

const TITLES: Record<ErrorCode, string> = {
  bad_request: "Bad request",
  unauthenticated: "Authentication required",
  forbidden: "Forbidden",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  conflict: "Conflict",
  payload_too_large: "Payload too large",
  unsupported_media_type: "Unsupported media type",
  invalid_input: "Invalid input",
  rate_limited: "Too many requests",
  internal: "Internal error",
  registry_unavailable: "Registry unavailable",
  forge_unavailable: "Forge unavailable",
  unavailable: "Service unavailable",
};

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });

export type Problem = z.infer<typeof problemSchema>;

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

export function problemResponse(code: ErrorCode, detail: string, opts: { errors?: FieldError[]; headers?: Record<string, string> } = {}): Response {
  const body = problemBody(code, detail, opts.errors);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store", ...opts.headers },
  });
}

/** zod issues → `errors[{pointer, detail}]` with JSON Pointers (RFC 6901) into the input. */
export function zodErrors(error: z.ZodError, root: "" | "/query" | "/params" = ""): FieldError[] {
  return error.issues.slice(0, 50).map((issue) => ({
    pointer: root + issue.path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join(""),
    detail: issue.message,
  }));
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
  return problemResponse("internal", "Something went wrong on our side. The error was logged.");
}
