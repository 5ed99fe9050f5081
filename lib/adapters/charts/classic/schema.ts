// A classic Helm chart repository's index.yaml (helm repo index): `entries` maps each chart to its
// versions, newest first by convention; only the fields read are kept.
import { z } from "zod";

const chartVersionSchema = z.object({
  version: z.string().min(1).max(200),
  // Helm writes RFC 3339 with nanoseconds; an index written by other tools may leave it out.
  created: z.string().nullish(),
  deprecated: z.boolean().nullish(),
});

export const chartIndexSchema = z.object({
  apiVersion: z.string(),
  entries: z.record(z.string(), z.array(chartVersionSchema).nullish().transform((v) => v ?? [])).nullish().transform((v) => v ?? {}),
});

export type ChartIndex = z.infer<typeof chartIndexSchema>;
