// An API operation: its path, auth level, and zod schemas for params, query,
// body and responses. The same object drives request parsing (lib/http/route.ts)
// and the OpenAPI document (lib/api/openapi.ts), so they cannot disagree.
import type { z } from "zod";

export type AuthLevel = "public" | "viewer" | "member" | "admin" | "agent";
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type ResponseSpec = {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
};

export type Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> = {
  id: string;
  method: Method;
  /** OpenAPI path template, e.g. `/api/v1/services/{name}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthLevel;
  params?: P;
  query?: Q;
  body?: B;
  /** Success responses by status. Error responses are added for every operation. */
  responses: Record<number, ResponseSpec>;
};

export function defineOperation<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  op: Operation<P, Q, B>,
): Operation<P, Q, B> {
  return op;
}
