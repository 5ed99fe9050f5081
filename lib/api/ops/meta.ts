import { z } from "zod";
import { defineOperation } from "../operation";

export const metaOps = {
  health: defineOperation({
    id: "getHealth", method: "GET", path: "/api/health", summary: "Liveness and database reachability", tags: ["meta"], auth: "public",
    responses: { 200: { description: "Healthy", schema: z.object({ status: z.literal("ok"), database: z.literal("ok") }).meta({ id: "Health" }) } },
  }),
  openapi: defineOperation({
    id: "getOpenApi", method: "GET", path: "/api/v1/openapi.yaml", summary: "This document", tags: ["meta"], auth: "public",
    responses: { 200: { description: "OpenAPI 3.1 description of the API", contentType: "application/yaml", schema: z.string() } },
  }),
};
