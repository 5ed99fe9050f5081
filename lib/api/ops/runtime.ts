import { defineOperation } from "../operation";
import { createComposeTargetSchema, historyQuerySchema, historySchema, matrixQuerySchema, matrixSchema, targetListSchema, targetSchema } from "../schemas/matrix";

export const runtimeOps = {
  getMatrix: defineOperation({
    id: "getMatrix", method: "GET", path: "/api/v1/matrix", summary: "Versions per service and environment", tags: ["matrix"], auth: "viewer",
    description: "Environments in pipeline order; for each service a cell per environment where it runs or is declared. `version` is exact (a resolved moving tag gives its match, unresolved gives null). Where an environment has runtime targets, the cell shows what runs; with only Compose files, what Git declares (`declared: true`).",
    query: matrixQuerySchema,
    responses: { 200: { description: "The matrix", schema: matrixSchema } },
  }),
  listHistory: defineOperation({
    id: "listHistory", method: "GET", path: "/api/v1/history", summary: "What ran when", tags: ["matrix"], auth: "viewer",
    description: "History rows of main containers, newest first. `from` is when the runtime started the workload; `to` is null while it runs.",
    query: historyQuerySchema,
    responses: { 200: { description: "History rows", schema: historySchema } },
  }),
  listTargets: defineOperation({
    id: "listTargets", method: "GET", path: "/api/v1/targets", summary: "Targets: runtimes reported by agents, and Compose files in Git", tags: ["targets"], auth: "viewer",
    responses: { 200: { description: "Targets", schema: targetListSchema } },
  }),
  createTarget: defineOperation({
    id: "createTarget", method: "POST", path: "/api/v1/targets", summary: "Create a Compose-in-Git target", tags: ["targets"], auth: "member",
    description: "Runtime targets are created by agent reports. A Compose-in-Git target names a repository, a branch and the Compose files (several are merged in order) that declare what should run in one environment.",
    body: createComposeTargetSchema,
    responses: { 201: { description: "Created; read within the minute", schema: targetSchema } },
  }),
};
