// Every API operation, in one table. Route files bind handlers to these;
// lib/api/openapi.ts renders them as the OpenAPI document.
import { z } from "zod";
import { defineOperation } from "./operation";
import { idParams, nameParams } from "./schemas/common";
import { createEnvironmentSchema, environmentListSchema, environmentSchema, updateEnvironmentSchema } from "./schemas/environments";
import { createServiceSchema, serviceListSchema, serviceSchema, updateServiceSchema } from "./schemas/services";
import { createdTokenSchema, createTokenBodySchema, tokenListSchema } from "./schemas/tokens";

export const ops = {
  health: defineOperation({
    id: "getHealth", method: "GET", path: "/api/health", summary: "Liveness and database reachability", tags: ["meta"], auth: "public",
    responses: { 200: { description: "Healthy", schema: z.object({ status: z.literal("ok"), database: z.literal("ok") }).meta({ id: "Health" }) } },
  }),
  openapi: defineOperation({
    id: "getOpenApi", method: "GET", path: "/api/v1/openapi.yaml", summary: "This document", tags: ["meta"], auth: "public",
    responses: { 200: { description: "OpenAPI 3.1 description of the API", contentType: "application/yaml", schema: z.string() } },
  }),

  listEnvironments: defineOperation({
    id: "listEnvironments", method: "GET", path: "/api/v1/environments", summary: "Environments in pipeline order", tags: ["environments"], auth: "viewer",
    responses: { 200: { description: "Environments ordered by position", schema: environmentListSchema } },
  }),
  createEnvironment: defineOperation({
    id: "createEnvironment", method: "POST", path: "/api/v1/environments", summary: "Create an environment", tags: ["environments"], auth: "member",
    body: createEnvironmentSchema,
    responses: { 201: { description: "Created", schema: environmentSchema } },
  }),
  updateEnvironment: defineOperation({
    id: "updateEnvironment", method: "PATCH", path: "/api/v1/environments/{name}", summary: "Move an environment in the pipeline or mark it production", tags: ["environments"], auth: "member",
    params: nameParams, body: updateEnvironmentSchema,
    responses: { 200: { description: "Updated", schema: environmentSchema } },
  }),

  listServices: defineOperation({
    id: "listServices", method: "GET", path: "/api/v1/services", summary: "Services", tags: ["services"], auth: "viewer",
    query: z.object({ team: z.string().max(100).optional() }),
    responses: { 200: { description: "Services by name", schema: serviceListSchema } },
  }),
  createService: defineOperation({
    id: "createService", method: "POST", path: "/api/v1/services", summary: "Declare a service before any agent reports it", tags: ["services"], auth: "member",
    body: createServiceSchema,
    responses: { 201: { description: "Created", schema: serviceSchema } },
  }),
  getService: defineOperation({
    id: "getService", method: "GET", path: "/api/v1/services/{name}", summary: "One service", tags: ["services"], auth: "viewer",
    params: nameParams,
    responses: { 200: { description: "The service", schema: serviceSchema } },
  }),
  updateService: defineOperation({
    id: "updateService", method: "PATCH", path: "/api/v1/services/{name}", summary: "Change team, application, repository or policy", tags: ["services"], auth: "member",
    description: "Policy fields given are merged into the service's policy; a field set to null is removed. A forge value naming a host other than gitlab.com and the configured GitLab is refused with 422 before any request.",
    params: nameParams, body: updateServiceSchema,
    responses: { 200: { description: "Updated", schema: serviceSchema } },
  }),

  listTokens: defineOperation({
    id: "listTokens", method: "GET", path: "/api/v1/tokens", summary: "API tokens of the workspace", tags: ["tokens"], auth: "admin",
    responses: { 200: { description: "Tokens (values are never shown again)", schema: tokenListSchema } },
  }),
  createToken: defineOperation({
    id: "createToken", method: "POST", path: "/api/v1/tokens", summary: "Create an API token", tags: ["tokens"], auth: "admin",
    body: createTokenBodySchema,
    responses: { 201: { description: "Created; the value is shown this once", schema: createdTokenSchema } },
  }),
  revokeToken: defineOperation({
    id: "revokeToken", method: "DELETE", path: "/api/v1/tokens/{id}", summary: "Revoke an API token", tags: ["tokens"], auth: "admin",
    params: idParams,
    responses: { 204: { description: "Revoked" } },
  }),
};

export type Ops = typeof ops;
