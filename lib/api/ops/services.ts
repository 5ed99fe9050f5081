import { z } from "zod";
import { nameParams } from "../schemas/common";
import { createServiceSchema, serviceListSchema, serviceSchema, updateServiceSchema } from "../schemas/services";
import { defineOperation } from "../operation";

export const servicesOps = {
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
};

export const checkOps = {
  checkService: defineOperation({
    id: "checkService", method: "POST", path: "/api/v1/services/{name}/check", summary: "Check upstream now", tags: ["services"], auth: "member",
    description: "The service's repository is checked at once (server-checked registries) or on the agents' next report (private registries). Answers 202 before the check finishes; the service's `last_check` shows the result.",
    params: nameParams,
    responses: {
      202: {
        description: "Accepted; the check runs now",
        schema: z.object({ service: z.string(), repository: z.string(), checked_by: z.enum(["server", "agent"]) }).meta({ id: "CheckRequested" }),
      },
    },
  }),
};
