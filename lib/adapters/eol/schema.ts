// Wire format of the endoflife.date API v1 (https://endoflife.date/docs/api/v1):
// GET /products/{product} and GET /identifiers/purl, limited to the fields
// Driftwatch reads. Unknown fields are ignored; the API adds fields over time.
import { z } from "zod";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}/);

export const eolReleaseSchema = z.object({
  name: z.string().min(1),
  releaseDate: day.nullable().optional(),
  isLts: z.boolean().nullable().optional(),
  isEoas: z.boolean().nullable().optional(),
  eoasFrom: day.nullable().optional(),
  isEol: z.boolean(),
  eolFrom: day.nullable().optional(),
  isMaintained: z.boolean().nullable().optional(),
  latest: z
    .object({ name: z.string(), date: day.nullable().optional(), link: z.string().nullable().optional() })
    .nullable()
    .optional(),
});

export const eolProductEnvelopeSchema = z.object({
  schema_version: z.string(),
  generated_at: z.string().optional(),
  last_modified: z.string().optional(),
  result: z.object({
    name: z.string().min(1),
    label: z.string().optional(),
    releases: z.array(eolReleaseSchema),
  }),
});

export const eolPurlListSchema = z.object({
  schema_version: z.string().optional(),
  total: z.number().int().optional(),
  result: z.array(
    z.object({
      identifier: z.string().min(1),
      product: z.object({ name: z.string().min(1), uri: z.string().optional() }),
    }),
  ),
});

export type EolReleaseWire = z.infer<typeof eolReleaseSchema>;
