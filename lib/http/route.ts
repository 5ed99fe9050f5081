// The one wrapper every API route goes through: authentication and role,
// zod parsing of params, query and body, size and media-type limits, and
// RFC 9457 errors. Route files stay a line or two long. Next.js calls a
// handler with its request; the server's direct API path calls the same
// handler through `direct`, with the path's parameters already matched and
// the body still in Node's stream.
import type { z } from "zod";
import type { Operation } from "@/lib/api/operation";
import { AppError, zodErrors } from "@/lib/domain/errors";
import { getServerServices } from "@/lib/server/services";
import type { RequestCtx } from "@/lib/services/context";
import { checkJsonInput, queryObject, readJsonBody, type DirectBody } from "./body";
import { authenticate, buildCtx } from "./context";
import { errorToResponse } from "./problem";

type Infer<T> = [NonNullable<T>] extends [z.ZodType] ? z.output<NonNullable<T>> : undefined;

export type HandlerInput<Op extends Operation> = {
  ctx: RequestCtx;
  params: Infer<Op["params"]>;
  query: Infer<Op["query"]>;
  body: Infer<Op["body"]>;
  req: Request;
};

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

export function reply(status: number, body?: unknown, headers?: Record<string, string>): Reply {
  return { status, body, headers };
}

function isReply(value: unknown): value is Reply {
  return typeof value === "object" && value !== null && "status" in value && typeof (value as Reply).status === "number" && Object.keys(value).every((k) => ["status", "body", "headers"].includes(k));
}

type PathParams = Record<string, string | string[] | undefined>;
type RouteContext = { params: Promise<PathParams> };

/** A route file's export: Next.js's handler, the operation it serves, and the direct path's way in. */
export type RouteHandler = ((req: Request, routeCtx: RouteContext) => Promise<Response>) & {
  op: Operation;
  direct: (req: Request, params: PathParams, body: DirectBody | undefined) => Promise<Response>;
};

export function handle<Op extends Operation>(op: Op, fn: (input: HandlerInput<Op>) => Promise<unknown>): RouteHandler {
  const run = async (req: Request, pathParams: PathParams | Promise<PathParams>, direct: DirectBody | undefined): Promise<Response> => {
    try {
      const services = await getServerServices();
      const now = new Date();
      const caller = await authenticate(req, op.auth, services, now);
      const ctx = await buildCtx(services, caller, { read: req.method === "GET" || req.method === "HEAD", now });

      let params: unknown = undefined;
      if (op.params) {
        const parsed = op.params.safeParse(await pathParams);
        if (!parsed.success) throw new AppError("not_found", "No such object.");
        params = parsed.data;
      }
      let query: unknown = undefined;
      if (op.query) {
        const raw = queryObject(new URL(req.url));
        checkJsonInput(raw, "/query");
        const parsed = op.query.safeParse(raw);
        if (!parsed.success) throw new AppError("invalid_input", "The query parameters are invalid.", { errors: zodErrors(parsed.error, "/query") });
        query = parsed.data;
      }
      let body: unknown = undefined;
      if (op.body) {
        const raw = await readJsonBody(req, direct);
        const parsed = op.body.safeParse(raw ?? {});
        if (!parsed.success) throw new AppError("invalid_input", "The request body is invalid.", { errors: zodErrors(parsed.error) });
        body = parsed.data;
      }

      const result = await fn({ ctx, params, query, body, req } as HandlerInput<Op>);
      if (result instanceof Response) return result;
      const { status, body: out, headers } = isReply(result)
        ? result
        : { status: Number(Object.keys(op.responses)[0] ?? 200), body: result, headers: undefined };
      if (out === undefined || status === 204) return new Response(null, { status, headers });
      return new Response(JSON.stringify(out), {
        status,
        headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
      });
    } catch (err) {
      return errorToResponse(err);
    }
  };
  return Object.assign((req: Request, routeCtx: RouteContext) => run(req, routeCtx.params, undefined), {
    op,
    direct: (req: Request, params: PathParams, body: DirectBody | undefined) => run(req, params, body),
  });
}
