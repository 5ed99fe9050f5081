// Field schemas every service's input and output share.
import { z } from "zod";
import "zod-openapi";

export const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,199}$/;
export const nameSchema = z
  .string()
  .regex(NAME_RE, { message: "must start with a letter or digit and use only letters, digits and . _ : @ + -, at most 200 characters" });

export const timestamp = z.iso.datetime({ offset: true }).meta({ description: "RFC 3339 timestamp (UTC)" });
export const nullableTimestamp = timestamp.nullable();

export const itemsOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });

export const nameParams = z.object({ name: nameSchema });
export const idParams = z.object({ id: z.uuid() });

/** Query booleans arrive as strings. */
export const queryBoolean = z.enum(["true", "false"]).transform((v) => v === "true");
