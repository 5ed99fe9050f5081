import { nameParams } from "../schemas/common";
import { createEnvironmentSchema, environmentListSchema, environmentSchema, updateEnvironmentSchema } from "../schemas/environments";
import { defineOperation } from "../operation";

export const environmentsOps = {
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
};
