// The sign-in form's fields, parsed the same way wherever they arrive.
import { z } from "zod";

const email = z.string().trim().toLowerCase().email().max(320);

export const credentialsSchema = z.object({ email, password: z.string().min(1).max(1000) });

/** The e-mail as sign-in counts it (trimmed, lower case), or null when it is not one. */
export function normalizeEmail(value: unknown): string | null {
  const parsed = email.safeParse(value);
  return parsed.success ? parsed.data : null;
}
