// The OpenAPI 3.1 document, rendered from the operations table.
import { createDocument } from "zod-openapi";
import YAML from "yaml";
import { problemSchema, PROBLEM_CONTENT_TYPE } from "./problem";
import type { Operation } from "./operation";
import { ops } from "./operations";

const ERRORS: Record<number, string> = {
  400: "Malformed request (bad JSON, invalid UTF-8)",
  401: "Missing or invalid credentials",
  403: "The credentials' role is too low for this operation",
  404: "No such object in this workspace",
  409: "Conflicts with an existing object",
  413: "Body larger than 1 MiB",
  415: "Body is not JSON",
  422: "Invalid input; `errors` points at each invalid field",
  429: "Too many requests; see Retry-After",
  431: "Request line or headers larger than 16 KiB",
  500: "Unexpected error (logged; no details are sent)",
  503: "The database is busy or restarting; retry after Retry-After seconds",
};

function errorStatuses(op: Operation): number[] {
  const statuses = [400, 429, 431, 500, 503];
  if (op.auth !== "public") statuses.push(401, 403);
  if (op.params || op.method !== "GET") statuses.push(404);
  // Any write can meet a conflict (a check of a service with no repository yet, for one).
  if (op.method !== "GET") statuses.push(409);
  if (op.body) statuses.push(409, 413, 415, 422);
  if (op.query) statuses.push(422);
  return [...new Set(statuses)].sort();
}

export function buildOpenApiDocument(baseUrl = "") {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of Object.values(ops) as Operation[]) {
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(op.responses)) {
      responses[status] = spec.schema
        ? { description: spec.description, content: { [spec.contentType ?? "application/json"]: { schema: spec.schema } } }
        : { description: spec.description };
    }
    for (const status of errorStatuses(op)) {
      responses[String(status)] ??= { description: ERRORS[status], content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } } };
    }
    const requestParams: Record<string, unknown> = {};
    if (op.params) requestParams.path = op.params;
    if (op.query) requestParams.query = op.query;
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      ...(op.auth === "public" ? { security: [] } : {}),
      ...(Object.keys(requestParams).length ? { requestParams } : {}),
      ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: op.body } } } } : {}),
      responses,
    };
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Driftwatch API",
      version: "1",
      description:
        "Which version of each service runs where, and how it drifts. Every error is RFC 9457 problem+json. Authenticate with `Authorization: Bearer <token>` (API tokens start with `dw_`, agent keys with `dwa_`).",
    },
    servers: baseUrl ? [{ url: baseUrl }] : [],
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "API token (dw_…) or, for agent routes, an agent key (dwa_…)" } } },
    paths: paths as never,
  });
}

let cachedYaml: string | undefined;

export function openApiYaml(): string {
  cachedYaml ??= YAML.stringify(buildOpenApiDocument(), { aliasDuplicateObjects: false });
  return cachedYaml;
}
