// First-run setup as the setup page and the CLI send it.
import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import { nameSchema } from "../schemas";

export const setupInputSchema = z.object({
  workspace: nameSchema,
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(MIN_PASSWORD_LENGTH, { message: `must be at least ${MIN_PASSWORD_LENGTH} characters` }).max(1000),
  name: z.string().trim().max(200).optional(),
});
