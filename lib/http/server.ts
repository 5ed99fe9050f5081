// The HTTP edge's Node server: Next.js for pages and the API, and before it
// the checks Next.js would answer badly (a bare 500, an HTML 404, a redirect),
// every one as problem+json; bearer API requests take the direct API path.
import http from "node:http";
import path from "node:path";
import type { Duplex } from "node:stream";
import { readFileSync } from "node:fs";
import { matchApiRoute } from "@/lib/api/route-table";
import type { Config } from "@/lib/config";
import { log } from "@/lib/log";
import { MAX_BODY_BYTES } from "./body";
import { forwardedFor } from "./client-address";
import { directApi, type RouteModule } from "./direct";
import { rawProblem, writeProblem } from "./problem";
import { apiContentSecurityPolicy, FIXED_SECURITY_HEADERS } from "./security-headers";

/**
 * A declared body up to this size is read and dropped after a 413, as Node does for any request
 * left unread: the client finishes sending and reads the answer. Closing at once made a client
 * still writing fail with a broken pipe instead (fetch never saw the 413). Larger ones are cut off.
 */
const DRAIN_REFUSED_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Next.js is given the configuration `next build` resolved, as its own standalone
 * server is: next.config.ts is not compiled again at each start, so Next's native
 * compiler (SWC, about 30 MB of the server's memory) is never loaded.
 */
function adoptBuiltNextConfig(root: string): void {
  const manifest = path.join(root, process.env.NEXT_DIST_DIR || ".next", "required-server-files.json");
  const built = (JSON.parse(readFileSync(manifest, "utf8")) as { config?: object }).config;
  if (built) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built);
}

function securityHeaders(): Record<string, string> {
  return { ...Object.fromEntries(FIXED_SECURITY_HEADERS.map((h) => [h.key, h.value])), "content-security-policy": apiContentSecurityPolicy() };
}

function decodablePath(target: string): boolean {
  try {
    decodeURIComponent(target.split("?")[0]!);
    return true;
  } catch {
    return false;
  }
}

/**
 * Answers what must not reach Next.js; true when the request was answered. API paths and /metrics
 * get a policy that allows nothing on every answer, here rather than in proxy.ts, so an API request
 * costs no proxy round; an unknown API path or a wrong method gets problem+json, where Next.js
 * would answer with an HTML page or an empty 405.
 */
function refusedBeforeNext(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const target = req.url ?? "/";
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    // Closing the connection after the answer leaves the rest unread.
    const close = declared > DRAIN_REFUSED_BODY_BYTES;
    writeProblem(res, "payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`, { headers: { ...securityHeaders(), ...(close ? { connection: "close" } : {}) } });
    return true;
  }
  // Next.js answers a path whose percent-escapes are not UTF-8 (/services/%ff) with a bare 500.
  if (!decodablePath(target)) {
    writeProblem(res, "bad_request", "The path's percent-escapes are not valid UTF-8.", { headers: { ...securityHeaders(), connection: "close" } });
    return true;
  }
  // Next.js resolves dot segments, even percent-encoded ones, and redirects; no API path has one.
  if (/^\/api(\/|$)/.test(target) && /\/(?:\.|%2e){1,2}(?:[/?#]|$)/i.test(target)) {
    writeProblem(res, "not_found", "API paths have no . or .. segments.", { headers: { ...securityHeaders(), connection: "close" } });
    return true;
  }
  const pathname = target.split("?")[0]!;
  const api = pathname === "/api" || pathname.startsWith("/api/");
  if (!api && pathname !== "/metrics" && !pathname.startsWith("/admission/")) return false;
  res.setHeader("content-security-policy", apiContentSecurityPolicy());
  if (!api) return false;
  const method = req.method ?? "GET";
  const match = matchApiRoute(pathname, method);
  if (match.kind === "not_found") {
    writeProblem(res, "not_found", `No API route ${pathname}.`, { headers: securityHeaders(), head: method === "HEAD" });
    return true;
  }
  if (match.kind === "method") {
    writeProblem(res, "method_not_allowed", `${method} is not supported here; use ${match.allowed.join(", ")}.`, {
      headers: { ...securityHeaders(), allow: match.allowed.join(", ") },
      head: method === "HEAD",
    });
    return true;
  }
  return false;
}

/** What Node refuses before any handler runs (a request line or headers over 16 KiB, malformed HTTP), as problem+json too. */
function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  socket.end(
    err.code === "HPE_HEADER_OVERFLOW"
      ? rawProblem("headers_too_large", "The request line and headers are limited to 16 KiB.")
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? rawProblem("request_timeout", "The request was not received in time.")
        : rawProblem("bad_request", "The request is not valid HTTP."),
  );
}

/**
 * Next's router logs "Running next.config.ts took …" as it prepares (it reads the built
 * configuration we hand it): a line about Next's internals in our start-up output. Only that
 * line is dropped, and only while preparing.
 */
async function withoutConfigTiming<T>(fn: () => Promise<T>): Promise<T> {
  const original = console.log;
  console.log = (...args: unknown[]) => {
    if (args.some((a) => typeof a === "string" && /Running next\.config\S* took/.test(a))) return;
    original(...args);
  };
  try {
    return await fn();
  } finally {
    console.log = original;
  }
}

export type HttpEdge = { server: http.Server; close: () => Promise<void> };

/**
 * Prepares Next.js (built in `root`) and listens. `apiRoutes` loads the API's route modules
 * for the direct path; they are loaded once listening, not at the first request.
 */
export async function serveHttp(opts: { config: Config; root: string; apiRoutes: () => Promise<readonly RouteModule[]> }): Promise<HttpEdge> {
  const { config, root } = opts;
  adoptBuiltNextConfig(root);
  const next = (await import("next")).default;
  const app = next({ dev: false, dir: root, hostname: config.host, port: config.port });
  await withoutConfigTiming(() => app.prepare());
  const nextHandler = app.getRequestHandler();
  const direct = directApi(opts.apiRoutes);
  const server = http.createServer((req, res) => {
    if (refusedBeforeNext(req, res)) return;
    const xff = forwardedFor(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
    if (xff) req.headers["x-forwarded-for"] = xff;
    else delete req.headers["x-forwarded-for"];
    direct
      .answer(req, res)
      .then((answered) => (answered ? undefined : nextHandler(req, res)))
      .catch((err: unknown) => {
        log.error(`request failed: ${String(err)}`);
        if (!res.headersSent) writeProblem(res, "internal", "Something went wrong on our side.");
      });
  });
  server.keepAliveTimeout = 65_000;
  // A body dripped slowly holds a request at most this long (Node's default is 5 minutes).
  server.requestTimeout = 60_000;
  server.on("clientError", onClientError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, resolve);
  });
  direct.preload().catch((err: unknown) => log.warn(`loading the API routes: ${String(err)}`));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 5_000).unref();
    });
  return { server, close };
}
