// Registry failures as AppError codes. `forbidden` always means "this client
// may not read the repository": for the server, a private repository that an
// agent with credentials should look up instead.
import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { registryErrorSchema } from "@/lib/adapters/registries/schemas";

/** True when the registry refused us (anonymously, or with the credentials given). */
export function isPrivateRepositoryError(err: unknown): err is AppError {
  return err instanceof AppError && err.code === "forbidden";
}

export function unavailable(message: string, cause?: unknown): AppError {
  return new AppError("registry_unavailable", message, { cause });
}

export function malformed(what: string, error: z.ZodError | SyntaxError | string): AppError {
  const detail = typeof error === "string" ? error : error instanceof z.ZodError ? z.prettifyError(error) : error.message;
  return unavailable(`${what}: malformed response (${detail.split("\n").slice(0, 3).join("; ")})`);
}

/** Parses a JSON body with a schema; any failure is a malformed response. */
export function parseBody<T>(schema: z.ZodType<T>, body: Buffer, what: string): T {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch (err) {
    throw malformed(what, err instanceof SyntaxError ? err : "not JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw malformed(what, parsed.error);
  return parsed.data;
}

function registryErrorCodes(body: Buffer): string {
  try {
    const parsed = registryErrorSchema.safeParse(JSON.parse(body.toString("utf8")));
    if (!parsed.success) return "";
    return ` (${parsed.data.errors.map((e) => (e.message ? `${e.code}: ${e.message}` : e.code)).join("; ")})`.slice(0, 300);
  } catch {
    return "";
  }
}

/** The error for a response status that the caller did not handle. */
export function statusError(status: number, body: Buffer, what: string): AppError {
  const detail = registryErrorCodes(body);
  if (status === 401 || status === 403) return new AppError("forbidden", `${what}: access denied (${status})${detail}`);
  if (status === 404) return new AppError("not_found", `${what} was not found${detail}.`);
  return unavailable(`${what}: registry answered ${status}${detail}`);
}
