// POST /api/mcp: Bearer API tokens only, then a fresh stateless server and
// Streamable HTTP transport (JSON responses) for this one request.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { bearerToken } from "@/lib/auth/secrets";
import { AppError } from "@/lib/domain/errors";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { buildCtx } from "@/lib/http/context";
import { errorToResponse } from "@/lib/http/problem";
import { getServerServices, type ServerServices } from "@/lib/server/services";
import { authenticateBearer } from "@/lib/services/sessions/authenticate";
import { requireRole, type Actor, type RequestCtx } from "@/lib/services/context";
import { createMcpServer } from "./server";

const CHALLENGE = { "www-authenticate": 'Bearer realm="driftwatch"' };

async function authenticate(req: Request, services: ServerServices, now: Date): Promise<Actor> {
  const header = req.headers.get("authorization");
  const value = bearerToken(header);
  if (value === null) throw new AppError("unauthenticated", "Send an API token as Authorization: Bearer <token>.");
  const actor = await authenticateBearer(services.db, value, now);
  if (actor === null) throw new AppError("unauthenticated", "The bearer token is invalid or revoked.");
  if (actor.kind === "agent") throw new AppError("forbidden", "Agent keys can only report observations.");
  requireRole(actor, "viewer");
  return actor;
}

export async function handleMcpRequest(req: Request): Promise<Response> {
  let ctx: RequestCtx;
  try {
    const services = await getServerServices();
    const now = new Date();
    ctx = await buildCtx(services, { actor: await authenticate(req, services, now) }, { read: true, now });
  } catch (err) {
    const res = errorToResponse(err);
    if (res.status === 401) for (const [k, v] of Object.entries(CHALLENGE)) res.headers.set(k, v);
    return res;
  }

  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
  try {
    await server.connect(transport);
    return await transport.handleRequest(req);
  } catch (err) {
    return errorToResponse(err);
  } finally {
    await server.close().catch(() => {});
  }
}
