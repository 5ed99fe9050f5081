// The one wrapper every settings server action goes through: the signed-in
// session, the role the service will ask for, the zod parse of the form's
// input, and the service's AppError as a result the form can show. Anything
// else (a redirect, a bug) is thrown on.
import { redirect } from "next/navigation";
import type { z } from "zod";
import { withFlash } from "@/components/settings/flash";
import { AppError, zodErrors, type FieldError } from "@/lib/domain/errors";
import { requirePageSession } from "@/lib/http/context";
import { requireRole, type RequestCtx, type Role } from "@/lib/services/context";

/** `invalidInput`: the form's input failed the schema (the service was not called). */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; message: string; errors: FieldError[]; invalidInput: boolean };

export const FIELDS_NEED_FIXING = "Some fields need fixing.";

export async function settingsAction<T, I = unknown>(
  spec: { role?: Role; schema?: z.ZodType<I>; input?: unknown },
  run: (args: { ctx: RequestCtx; input: I }) => Promise<T>,
): Promise<ActionResult<T>> {
  const { ctx } = await requirePageSession();
  try {
    if (spec.role) requireRole(ctx.actor, spec.role);
    let input = spec.input as I;
    if (spec.schema) {
      const parsed = spec.schema.safeParse(spec.input);
      if (!parsed.success) return { ok: false, message: FIELDS_NEED_FIXING, errors: zodErrors(parsed.error), invalidInput: true };
      input = parsed.data;
    }
    return { ok: true, value: await run({ ctx, input }) };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, message: err.message, errors: err.errors ?? [], invalidInput: false };
    throw err;
  }
}

/** For forms that answer with a redirect: back to `path` with the outcome in the URL. */
export function redirectWithFlash(path: string, result: ActionResult<string>, describeError: (r: { message: string; errors: FieldError[] }) => string = (r) => r.message): never {
  redirect(withFlash(path, result.ok ? { ok: result.value } : { error: describeError(result) }));
}
