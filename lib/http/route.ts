// The one wrapper every API route goes through: authentication and role,
// zod parsing of params, query and body, size and media-type limits, and
// RFC 9457 errors. Route files stay a line or two long.
import { z } from "zod";
import { cookies } from "next/headers";
import { auth } from "@/auth";
import type { AuthLevel, Operation } from "@/lib/api/operation";
import { bearerToken } from "@/lib/auth/secrets";
import { WORKSPACE_COOKIE } from "@/lib/auth/workspace-cookie";
import { AppError } from "@/lib/domain/errors";
import { takeDirectBody } from "@/lib/http/direct-body";
import { errorToResponse, zodErrors } from "@/lib/http/problem";
import { getServerServices } from "@/lib/server/services";
import { actorForUser, authenticateBearerWithSnapshot } from "@/lib/services/authenticate";
import { driftSettled } from "@/lib/services/drift/evaluate-workspace";
import { requireRole, type Actor, type Ctx } from "@/lib/services/context";

export const MAX_BODY_BYTES = 1024 * 1024;

type Infer<T> = [NonNullable<T>] extends [z.ZodType] ? z.output<NonNullable<T>> : undefined;

export type HandlerInput<Op extends Operation> = {
  ctx: Ctx;
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

const UTF8 = new TextDecoder("utf-8", { fatal: true });

async function readBody(req: Request): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const length = Number(req.headers.get("content-length") ?? "0");
  const tooLarge = () => new AppError("payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
  if (length > MAX_BODY_BYTES) throw tooLarge();
  const direct = takeDirectBody(req);
  if (!req.body && !direct) {
    if (type === "") return undefined;
  }
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new AppError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
  }
  let bytes: Buffer;
  if (direct) {
    const read = await direct(MAX_BODY_BYTES);
    if (read === "too_large") throw tooLarge();
    bytes = read;
  } else {
    const reader = req.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
    bytes = Buffer.concat(chunks);
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new AppError("bad_request", "The body is not valid UTF-8.");
  }
  if (text.trim() === "") throw new AppError("bad_request", "The body is empty; send a JSON document.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new AppError("bad_request", `The body is not valid JSON: ${(err as Error).message}`);
  }
  checkJsonInput(value, "");
  return value;
}

export const MAX_JSON_DEPTH = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses, before any schema or service sees them, what no field may hold:
 * NUL characters (PostgreSQL cannot store them in text), unpaired surrogates
 * (a JSON `\uD800` escape: no UTF-8 spelling, and PostgreSQL's JSON refuses it), and nesting deeper
 * than MAX_JSON_DEPTH (serialising it again would recurse that deep). The walk
 * stops at that depth too, and names a value's JSON pointer only when refusing it
 * (every report passes through here, and building one per value makes garbage).
 */
function checkJsonInput(value: unknown, root: "" | "/query"): void {
  const path: (string | number)[] = [];
  const pointer = (...last: string[]) => root + [...path, ...last].map((k) => `/${String(k).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
  const nul = (at: string, detail: string) => new AppError("invalid_input", "Text must not contain NUL characters.", { errors: [{ pointer: at, detail }] });
  const unpaired = (at: string, detail: string) => new AppError("invalid_input", "Text must be well-formed Unicode.", { errors: [{ pointer: at, detail }] });
  const visit = (v: unknown, depth: number): void => {
    if (typeof v === "string") {
      if (v.includes("\u0000")) throw nul(pointer(), "must not contain NUL (\\u0000)");
      // JSON's \uD800 escapes decode to strings no database column can hold as they are.
      if (LONE_SURROGATE.test(v)) throw unpaired(pointer(), "must be well-formed Unicode (no unpaired surrogate escape)");
      return;
    }
    if (v === null || typeof v !== "object") return;
    if (depth >= MAX_JSON_DEPTH) throw new AppError("bad_request", `The body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        visit(v[i], depth + 1);
        path.pop();
      }
      return;
    }
    const object = v as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      if (key.includes("\u0000")) throw nul(pointer(key), "the name must not contain NUL (\\u0000)");
      if (LONE_SURROGATE.test(key)) throw unpaired(pointer(key), "the name must be well-formed Unicode (no unpaired surrogate escape)");
      path.push(key);
      visit(object[key], depth + 1);
      path.pop();
    }
  };
  visit(value, 0);
}

function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length > 1 ? all : all[0]!;
  }
  return out;
}

function sameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (origin) {
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  return req.headers.get("sec-fetch-site") === "same-origin";
}

/** The caller, and the transaction snapshot read with a bearer credential (see Ctx.snapshot). */
async function authenticate(req: Request, level: AuthLevel, services: Awaited<ReturnType<typeof getServerServices>>): Promise<{ actor: Actor; snapshot?: string | null }> {
  if (level === "public") return { actor: { kind: "system", workspaceId: null } };
  const header = req.headers.get("authorization");
  if (header !== null) {
    const value = bearerToken(header);
    const { actor, snapshot } = value ? await authenticateBearerWithSnapshot(services.db, value, services.now()) : { actor: null, snapshot: null };
    if (!actor) throw new AppError("unauthenticated", "The bearer token is invalid or revoked.");
    if (level === "agent") {
      if (actor.kind !== "agent") throw new AppError("forbidden", "This route takes an agent key.");
      return { actor, snapshot };
    }
    if (actor.kind === "agent") throw new AppError("forbidden", "Agent keys can only report observations.");
    requireRole(actor, level);
    return { actor, snapshot };
  }
  if (level === "agent") throw new AppError("unauthenticated", "Send the agent key as Authorization: Bearer <key>.");
  // Auth.js builds the request's URL from Host / X-Forwarded-Host; one that is not a host name makes it throw.
  const session = await auth().catch(() => {
    throw new AppError("bad_request", "The Host or X-Forwarded-Host header is not a valid host name.");
  });
  const userId = session?.user?.id;
  if (!userId) throw new AppError("unauthenticated", "Send Authorization: Bearer <token>, or sign in.");
  if (req.method !== "GET" && req.method !== "HEAD" && !sameOrigin(req)) {
    throw new AppError("forbidden", "Cross-site request refused.");
  }
  const preferred = (await cookies()).get(WORKSPACE_COOKIE)?.value ?? null;
  const actor = await actorForUser(services.db, userId, preferred);
  if (!actor) throw new AppError("forbidden", "You are not a member of any workspace.");
  requireRole(actor, level);
  return { actor };
}

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

export function handle<Op extends Operation>(op: Op, fn: (input: HandlerInput<Op>) => Promise<unknown>) {
  return async (req: Request, routeCtx: RouteContext): Promise<Response> => {
    try {
      const services = await getServerServices();
      const { actor, snapshot } = await authenticate(req, op.auth, services);
      // A read after a report sees that report's drift (evaluated just after the 202); having
      // waited for it, the position read with the credential is old, so caches ask again.
      // A write's own changes come after that position too: only reads use it.
      const read = req.method === "GET" || req.method === "HEAD";
      const waited = read && actor.workspaceId !== null && (await driftSettled(actor.workspaceId));
      const ctx: Ctx = { db: services.db, config: services.config, now: services.now, actor, ...(read && !waited ? { snapshot } : {}) };

      let params: unknown = undefined;
      if (op.params) {
        const parsed = op.params.safeParse(await routeCtx.params);
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
        const raw = await readBody(req);
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
}
