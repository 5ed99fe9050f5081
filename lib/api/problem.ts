// RFC 9457 problem details: the shape of every error response, as the API
// document describes it. lib/http/problem.ts writes them.
import { z } from "zod";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });

export type Problem = z.infer<typeof problemSchema>;
