// The assistant's tools over the same services as the REST API: each takes a
// zod input, answers with structured content that matches its output schema,
// and a JSON text copy for clients that read only text.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { driftListSchema } from "@/lib/api/schemas/drift";
import { promotionsSchema, updatesSchema } from "@/lib/api/schemas/insights";
import { matrixSchema } from "@/lib/api/schemas/matrix";
import { serviceSchema } from "@/lib/api/schemas/services";
import { AppError } from "@/lib/domain/errors";
import { DRIFT_KINDS } from "@/lib/domain/policy";
import { log } from "@/lib/log";
import type { RequestCtx } from "@/lib/services/context";
import { getMatrixWithSummary } from "@/lib/services/matrix/get-with-summary";
import { listDrifts } from "@/lib/services/drift/list-drifts";
import { listPromotionsForWorkspace } from "@/lib/services/insights/promotions";
import { listUpdates } from "@/lib/services/insights/updates";
import { getServiceOrThrow } from "@/lib/services/services/get";

export const MCP_SERVER_INFO = { name: "driftwatch", version: "1.0.0" };

/**
 * Text a tool takes: as the REST API (lib/http/body.ts), NUL is refused with a clear error
 * before anything reaches the database, which cannot store it in text.
 */
const text = (max: number, min = 0) => z.string().min(min).max(max).refine((v) => !v.includes("\u0000"), "must not contain NUL (\\u0000)");

/** The root as a plain object schema: a named (component) root would render as a bare `$ref`, not `type: object`. */
const unnamed = <T extends z.ZodRawShape>(schema: z.ZodObject<T>) => z.object(schema.shape);

const structured = <T extends Record<string, unknown>>(value: T) => ({
  structuredContent: value,
  content: [{ type: "text" as const, text: JSON.stringify(value) }],
});

/**
 * A tool's answer. The SDK sends a thrown error's message to the client as
 * text: an AppError says what was wrong; anything else (a database error names
 * source files) is logged and stays generic.
 */
async function answer<T extends Record<string, unknown>>(work: () => Promise<T>) {
  try {
    return structured(await work());
  } catch (err) {
    if (err instanceof AppError) throw err;
    log.error("mcp tool failed", { error: String((err as Error)?.message ?? err).slice(0, 500) });
    throw new Error("Something went wrong on our side. The error was logged.");
  }
}

/** One server per request (stateless), acting as the request's actor. */
export function createMcpServer(ctx: RequestCtx): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions: "Driftwatch knows which version of each service runs in each environment, how it drifts from upstream, from the previous environment and from end-of-life dates, and what waits for promotion.",
  });

  server.registerTool("updates", {
    title: "Updates list",
    description: "What to upgrade, most urgent first (end of life passed, end of life soon, major, minor, behind the previous environment, patch; production first; longest open first). The same content as GET /api/v1/updates. Put-off lines are under `acknowledged`. Each line's `waiting` lists newer releases the policy's min_release_age still holds back, with when each will alert.",
    inputSchema: {
      team: text(100).optional().describe("Only services of this team"),
      environment: text(100).optional().describe("Only this environment"),
      application: text(200).optional().describe("Only services of this application"),
    },
    outputSchema: unnamed(updatesSchema),
    annotations: { readOnlyHint: true },
  }, (query) => answer(() => listUpdates({ ctx, input: query })));

  server.registerTool("matrix", {
    title: "Version matrix",
    description: "Versions per service and environment (pipeline order), with drift kinds and end-of-life state per cell. The same content as GET /api/v1/matrix.",
    inputSchema: {
      team: text(100).optional(),
      environment: text(100).optional().describe("Only services that run in this environment"),
      kind: z.enum(DRIFT_KINDS).optional().describe("Only services with live drift of this kind"),
      q: text(200).optional().describe("Service name contains"),
      limit: z.number().int().min(1).max(5000).optional(),
      offset: z.number().int().min(0).optional(),
    },
    outputSchema: unnamed(matrixSchema),
    annotations: { readOnlyHint: true },
  }, (query) => answer(() => getMatrixWithSummary({ ctx, input: query })));

  server.registerTool("drifts", {
    title: "Drift records",
    description: "Drift records (env, upstream, inconsistent, declared, eol), newest first; by default those not resolved. The same content as GET /api/v1/drifts. `silenced` is true when an acknowledgement quiets its notifications.",
    inputSchema: {
      state: z.enum(["open", "announced", "resolved"]).optional().describe("Default: open and announced"),
      kind: z.enum(DRIFT_KINDS).optional(),
      service: text(200).optional(),
      environment: text(100).optional(),
      limit: z.number().int().min(1).max(10_000).optional().describe("At most this many, newest first"),
    },
    outputSchema: unnamed(driftListSchema),
    annotations: { readOnlyHint: true },
  }, (query) => answer(() => listDrifts({ ctx, input: query })));

  server.registerTool("promotions", {
    title: "Promotion candidates",
    description: "Versions that run in one environment and wait for the next, longest waiting first, with the releases a promotion would bring. The same content as GET /api/v1/promotions.",
    outputSchema: unnamed(promotionsSchema),
    annotations: { readOnlyHint: true },
  }, () => answer(() => listPromotionsForWorkspace({ ctx })));

  server.registerTool("service", {
    title: "One service",
    description: "A service's repository, policy in effect and where release notes come from; `upstream.waiting` lists releases its min_release_age still holds back. The same content as GET /api/v1/services/{name}.",
    inputSchema: { name: text(200, 1).describe("Service name") },
    outputSchema: unnamed(serviceSchema),
    annotations: { readOnlyHint: true },
  }, ({ name }) => answer(() => getServiceOrThrow({ ctx, input: { name } })));

  return server;
}
