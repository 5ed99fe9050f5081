// The direct API path: the production server answers API requests that carry
// a bearer credential with the very route handlers Next.js would run, called
// through their `direct` entry (lib/http/route.ts). Next.js's router, its
// request context and its response piping cost more CPU than a cached
// insight's own work, and one web process has one core for all of it.
// The gate's admission webhook (POST /admission/<signed>) is answered here too.
// Other requests without a bearer credential (browsers: Auth.js reads the session
// through Next's request context), OPTIONS, and any path that is not exactly
// an operation's still go to Next.js.
//
// These handlers run in the server's own module graph, not in Next's bundle:
// state they share with Next's copies (database client, drift queue, insights
// cache) is kept on globalThis by the modules that own it.
import type http from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import compressible from "compressible";
import Negotiator from "negotiator";
import type { Operation } from "@/lib/api/operation";
import { findOperation } from "@/lib/api/route-table";
import { log } from "@/lib/log";
import { cachedBodyOf } from "@/lib/http/cached-response";
import { answerAdmission } from "./admission";
import type { DirectBody } from "./body";
import { INTERNAL_ERROR_DETAIL, writeProblem } from "./problem";
import type { RouteHandler } from "./route";
import { FIXED_SECURITY_HEADERS } from "./security-headers";

const gzip = promisify(zlib.gzip);
/** As Next.js's compression middleware: bodies under 1 KiB are sent as they are. */
const COMPRESS_FROM_BYTES = 1024;

/** A route file's exports; the ones made with handle() are the operations' handlers. */
export type RouteModule = Record<string, unknown>;

/** Each operation's handler, from the route files' exports. */
export function handlersByOperation(modules: readonly RouteModule[]): Map<Operation, RouteHandler> {
  const byOp = new Map<Operation, RouteHandler>();
  for (const mod of modules) {
    for (const value of Object.values(mod)) {
      if (typeof value === "function" && "op" in value && "direct" in value) byOp.set((value as RouteHandler).op, value as RouteHandler);
    }
  }
  return byOp;
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
  return new Request(url, { method, headers });
}

/**
 * The request body, read from Node's stream when the handler asks for it.
 * What a handler leaves unread (an answer given before the body mattered: 401, 413) is discarded
 * after the response, as Node does for a request nobody read, so the client can finish sending and
 * read the answer.
 */
function nodeBody(req: http.IncomingMessage): DirectBody {
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

/** `/admission/<signed>`: one segment, as its route file (app/admission/[signed]) takes it. */
const ADMISSION_PATH = /^\/admission\/([^/]+)$/;

/** A path segment decoded as Next.js decodes a route's params; a malformed escape is left as it is (and matches no address). */
function segment(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Answers with what `respond` gives; every failure is a problem+json, and what it left unread is dropped. */
async function answerDirect(
  req: http.IncomingMessage, res: http.ServerResponse, withBody: boolean, respond: (body: DirectBody | undefined) => Promise<Response>, head = false,
): Promise<true> {
  try {
    const response = await respond(withBody ? nodeBody(req) : undefined);
    await send(req, res, response, head);
  } catch (err) {
    // handle() and answerAdmission() answer every error themselves; this is a module that failed to load, or a broken socket.
    log.error(`direct request failed: ${String(err)}`);
    if (!res.headersSent) writeProblem(res, "internal", INTERNAL_ERROR_DETAIL);
    else res.destroy();
  } finally {
    // What the handler left unread is read and dropped, as Node does for a request nobody read.
    if (withBody && !req.complete) req.resume();
  }
  return true;
}

/**
 * The direct path over these route modules (loaded once, on first use or ahead of it):
 * answers a request and resolves true, or resolves false when Next.js should answer it.
 * DRIFTWATCH_DIRECT_API=off sends every request through Next.js (to compare, or to rule this path out).
 */
export function directApi(load: () => Promise<readonly RouteModule[]>, env: Record<string, string | undefined> = process.env) {
  const disabled = env.DRIFTWATCH_DIRECT_API === "off";
  let handlers: Promise<Map<Operation, RouteHandler>> | undefined;
  const loaded = () => {
    handlers ??= load().then(handlersByOperation);
    handlers.catch(() => (handlers = undefined));
    return handlers;
  };
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    if (disabled) return false;
    const pathname = (req.url ?? "/").split("?")[0]!;
    // The gate's webhook has no bearer credential but is on every deploy's path: it skips Next.js too.
    const signed = req.method === "POST" ? segment(ADMISSION_PATH.exec(pathname)?.[1]) : undefined;
    if (signed !== undefined) return answerDirect(req, res, true, (body) => answerAdmission(webRequest(req, "POST"), signed, body));
    if (!req.headers.authorization) return false;
    if (!pathname.startsWith("/api/v1/")) return false;
    const method = req.method ?? "GET";
    const match = findOperation(pathname, method);
    if (!match) return false;
    const handler = await loaded().then((h) => h.get(match.op), () => undefined);
    if (!handler) return false;
    const withBody = match.op.method !== "GET";
    return answerDirect(req, res, withBody, (body) => handler.direct(webRequest(req, match.op.method), match.params, body), method === "HEAD");
  };
  return { answer, preload: () => loaded().then(() => undefined) };
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
