// The production server (cli/commands/start.ts) answers API requests that
// carry a bearer credential itself, with the very route handlers Next.js would
// run (app/api/v1/**/route.ts, all built on lib/http/route.ts). Next.js's
// router, its request context and its response piping cost about 1.5 ms of CPU
// a request, several times a cached insight's own work, and one web process
// has one core for all of it. Requests without a bearer credential (browsers:
// Auth.js reads the session through Next's request context), OPTIONS, and any
// path that is not exactly an operation's still go to Next.js.
//
// State the handlers share (database client, drift queue, insights cache) is
// kept on globalThis, so this module's copy and Next's bundle see the same.
import type http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import compressible from "compressible";
import Negotiator from "negotiator";
import type { Operation } from "@/lib/api/operation";
import { ops } from "@/lib/api/operations";
import { compilePathTemplate } from "@/lib/api/route-table";
import { attachDirectBody, type DirectBody } from "@/lib/http/direct-body";
import { problemBody } from "@/lib/http/problem";
import { FIXED_SECURITY_HEADERS } from "@/lib/http/security-headers";
import { cachedBodyOf } from "@/lib/services/insights/cache";
import { log } from "@/lib/log";
import { importRouteModule } from "@/lib/server/route-modules";

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, RouteHandler>>;
type Route = { pattern: RegExp; names: string[]; file: string; methods: Set<string> };

const ROOT = path.resolve(import.meta.dirname, "../..");
const gzip = promisify(zlib.gzip);
/** As Next.js's compression middleware: bodies under 1 KiB are sent as they are. */
const COMPRESS_FROM_BYTES = 1024;

/** `/api/v1/services/{name}/badge` → `app/api/v1/services/[name]/badge/route.ts`. */
export function routeFileOf(template: string): string {
  return path.join(ROOT, "app", ...template.split("/").filter(Boolean).map((s) => s.replace(/^\{(\w+)\}$/, "[$1]")), "route.ts");
}

/** DRIFTWATCH_DIRECT_API=off sends every request through Next.js (to compare, or to rule this path out). */
const DISABLED = process.env.DRIFTWATCH_DIRECT_API === "off";

let routes: Route[] | undefined;

function routeTable(): Route[] {
  if (routes) return routes;
  const byPath = new Map<string, Route>();
  for (const op of Object.values(ops) as Operation[]) {
    let route = byPath.get(op.path);
    if (!route) {
      route = { ...compilePathTemplate(op.path), file: routeFileOf(op.path), methods: new Set() };
      byPath.set(op.path, route);
    }
    route.methods.add(op.method);
  }
  routes = [...byPath.values()];
  return routes;
}

/** The route and its decoded path parameters, or null (Next.js then answers: trailing slashes, OPTIONS, unknown paths). */
export function matchDirectRoute(pathname: string, method: string): { route: Route; params: Record<string, string>; handlerMethod: string } | null {
  const handlerMethod = method === "HEAD" ? "GET" : method;
  for (const route of routeTable()) {
    const m = route.pattern.exec(pathname);
    if (!m || !route.methods.has(handlerMethod)) continue;
    const params: Record<string, string> = {};
    try {
      route.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)));
    } catch {
      return null;
    }
    return { route, params, handlerMethod };
  }
  return null;
}

const modules = new Map<string, Promise<RouteModule>>();

function loadRoute(file: string): Promise<RouteModule> {
  let loading = modules.get(file);
  if (!loading) {
    loading = importRouteModule(file) as Promise<RouteModule>;
    loading.catch(() => modules.delete(file));
    modules.set(file, loading);
  }
  return loading;
}

/** Loads every operation's route module ahead of the first request (compiling them takes a second or two). */
export async function preloadApiRoutes(): Promise<void> {
  await Promise.all(routeTable().map((r) => loadRoute(r.file)));
}

function webRequest(req: http.IncomingMessage, method: string): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value fetch's Headers refuses (Node's parser allows more): the handlers read none such.
    }
  }
  let url: URL;
  try {
    url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  } catch {
    url = new URL(req.url ?? "/", "http://localhost");
  }
  const request = new Request(url, { method, headers });
  if (method !== "GET" && method !== "HEAD") attachDirectBody(request, nodeBody(req));
  return request;
}

/**
 * The request body, read from Node's stream when the handler asks for it (lib/http/direct-body.ts).
 * What a handler leaves unread (an answer given before the body mattered: 401, 413) is discarded
 * after the response, as Node does for a request nobody read, so the client can finish sending and
 * read the answer.
 */
function nodeBody(req: http.IncomingMessage): DirectBody {
  unreadBodies.set(req, () => {
    if (!req.complete) req.resume();
  });
  return (limitBytes) =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const detach = () => void req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      const onData = (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > limitBytes) {
          // Left flowing with no listener: the rest is read and dropped.
          detach();
          resolve("too_large");
        } else chunks.push(chunk);
      };
      const onEnd = () => {
        detach();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      };
      const onError = (err: Error) => {
        detach();
        reject(err);
      };
      // IncomingMessage closes with its socket too: a client gone mid-body.
      const onClose = () => {
        if (req.complete) return;
        detach();
        reject(new Error("the client closed the connection before sending the whole body"));
      };
      req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
      if (req.readableEnded) onEnd();
    });
}

const unreadBodies = new WeakMap<http.IncomingMessage, () => void>();

function acceptsGzip(req: http.IncomingMessage): boolean {
  return new Negotiator(req).encoding(["gzip", "identity"]) === "gzip";
}

// Compressed once per cached body (a whole-fleet matrix is megabytes).
const gzipped = new WeakMap<Uint8Array, Promise<Buffer>>();

async function compressed(body: Uint8Array, cached: boolean): Promise<Buffer> {
  if (!cached) return gzip(body);
  let done = gzipped.get(body);
  if (!done) {
    done = gzip(body);
    gzipped.set(body, done);
  }
  return done;
}

/**
 * Answers the request with its route handler; false when this module does not
 * answer it (no bearer credential, or not exactly an operation's path), so Next.js should.
 */
export async function dispatchApi(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  if (!req.headers.authorization || DISABLED) return false;
  const pathname = (req.url ?? "/").split("?")[0]!;
  if (!pathname.startsWith("/api/v1/")) return false;
  const method = req.method ?? "GET";
  const match = matchDirectRoute(pathname, method);
  if (!match) return false;
  try {
    const handler = (await loadRoute(match.route.file))[match.handlerMethod];
    if (!handler) return false;
    const response = await handler(webRequest(req, match.handlerMethod), { params: Promise.resolve(match.params) });
    await send(req, res, response, method === "HEAD");
  } catch (err) {
    // handle() answers every error itself; this is a module that failed to load, or a broken socket.
    log.error(`direct API request failed: ${String(err)}`);
    if (!res.headersSent) {
      const body = JSON.stringify(problemBody("internal", "Something went wrong on our side. The error was logged."));
      res.writeHead(500, { "content-type": "application/problem+json", "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
      res.end(body);
    } else res.destroy();
  } finally {
    unreadBodies.get(req)?.();
  }
  return true;
}

async function send(req: http.IncomingMessage, res: http.ServerResponse, response: Response, head: boolean): Promise<void> {
  for (const { key, value } of FIXED_SECURITY_HEADERS) res.setHeader(key, value);
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  res.statusCode = response.status;
  const cached = cachedBodyOf(response);
  let body: Uint8Array | null = cached ?? (response.body ? new Uint8Array(await response.arrayBuffer()) : null);
  if (body !== null && body.byteLength >= COMPRESS_FROM_BYTES && compressible(response.headers.get("content-type") ?? "") && !response.headers.has("content-encoding")) {
    res.setHeader("vary", "Accept-Encoding");
    if (acceptsGzip(req)) {
      body = await compressed(body, cached !== undefined);
      res.setHeader("content-encoding", "gzip");
    }
  }
  if (body === null) return void res.end();
  res.setHeader("content-length", body.byteLength);
  res.end(head ? undefined : body);
}
