// Environments as the API accepts and shows them.
import { z } from "zod";
import { gateSettingsInput, gateSettingsSchema } from "../gate/schemas";
import { nameSchema, itemsOf } from "../schemas";

export const environmentSchema = z
  .object({
    name: z.string(),
    position: z.number().int(),
    production: z.boolean(),
    targets: z.number().int().meta({ description: "How many targets report into this environment" }),
    gate: gateSettingsSchema,
  })
  .meta({ id: "Environment" });

export const environmentListSchema = itemsOf(environmentSchema).meta({ id: "EnvironmentList" });

export const createEnvironmentSchema = z
  .object({
    name: nameSchema,
    position: z.number().int().min(0).max(10_000),
    production: z.boolean().optional(),
  })
  .strict()
  .meta({ id: "CreateEnvironment" });

export const updateEnvironmentSchema = z
  .object({
    position: z.number().int().min(0).max(10_000).optional(),
    production: z.boolean().optional(),
    gate: gateSettingsInput.optional(),
  })
  .strict()
  .meta({ id: "UpdateEnvironment", description: "`position` and `production` need the member role; `gate` needs admin" });
