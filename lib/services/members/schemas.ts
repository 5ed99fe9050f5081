// A member as the settings page adds one, and a role as it changes one.
import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import type { Role } from "../context";

export const ROLES = ["owner", "admin", "member", "viewer"] as const satisfies readonly Role[];

const emailSchema = z.string().trim().toLowerCase().email({ message: "must be an e-mail address" }).max(320);

export const addMemberSchema = z.object({
  email: emailSchema,
  role: z.enum(ROLES),
  password: z.string().min(MIN_PASSWORD_LENGTH, { message: `must be at least ${MIN_PASSWORD_LENGTH} characters` }).max(1000).optional(),
});

export const roleSchema = z.enum(ROLES);
