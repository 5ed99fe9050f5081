// API tokens as the API accepts and shows them.
import { z } from "zod";
import { itemsOf, nullableTimestamp, timestamp } from "../schemas";

/** What the settings page and the CLI send: the name defaults to "api". */
export const createTokenSchema = z.object({
  name: z.string().trim().min(1).max(100).default("api"),
  role: z.enum(["viewer", "member"]),
});

export const tokenSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: z.enum(["viewer", "member"]),
    prefix: z.string().meta({ description: "The visible start of the token, to recognise it" }),
    created_at: timestamp,
    last_used_at: nullableTimestamp,
    revoked_at: nullableTimestamp,
  })
  .meta({ id: "ApiToken" });

export const tokenListSchema = itemsOf(tokenSchema).meta({ id: "ApiTokenList" });

export const createTokenBodySchema = z
  .object({ name: z.string().trim().min(1).max(100).optional(), role: z.enum(["viewer", "member"]) })
  .strict()
  .meta({ id: "CreateApiToken" });

export const createdTokenSchema = z
  .object({ id: z.uuid(), name: z.string(), role: z.enum(["viewer", "member"]), prefix: z.string(), value: z.string().meta({ description: "Shown once" }), created_at: timestamp })
  .meta({ id: "CreatedApiToken" });
