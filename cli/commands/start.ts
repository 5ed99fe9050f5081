// driftwatch start: migrate, then serve the web app, the API and the
// scheduler in one process. Stops cleanly on SIGINT/SIGTERM.
import http from "node:http";
import type { Duplex } from "node:stream";
import path from "node:path";
import { existsSync, readFileSync } from "node:fs";
import type { Command } from "commander";
import { loadConfig, type Config } from "@/lib/config";
import { openDatabase } from "@/lib/db/database";
import { migrateDatabase } from "@/lib/db/migrate";
import { matchApiRoute } from "@/lib/api/route-table";
import { forwardedFor } from "@/lib/http/client-address";
import { problemBody } from "@/lib/http/problem";
import { apiContentSecurityPolicy, FIXED_SECURITY_HEADERS } from "@/lib/http/security-headers";
import { log, setLogLevel } from "@/lib/log";
import { dispatchApi, preloadApiRoutes } from "@/lib/server/api-dispatch";
import { resolveAuthSecret } from "@/lib/server/auth-secret";
import { tuneRuntime } from "@/lib/server/runtime";
import { startBackgroundWork } from "@/lib/server/background";
import { bool, wholeNumber } from "../options";

const ROOT = path.resolve(import.meta.dirname, "../..");

type StartOptions = { port?: string; eol?: boolean; host?: string; scheduler?: boolean };

/** Export the resolved configuration so the Next server's route handlers read the same values. */
function exportConfig(config: Config, databaseUrl: string, authSecret: string) {
  process.env.DATABASE_URL = databaseUrl;
  process.env.AUTH_SECRET = authSecret;
  process.env.PORT = String(config.port);
  process.env.HOST = config.host;
  process.env.DRIFTWATCH_BASE_URL = config.baseUrl;
  process.env.DRIFTWATCH_DATA_DIR = config.dataDir;
  process.env.DRIFTWATCH_EOL = String(config.eolEnabled);
}

/**
 * Next.js is given the configuration `next build` resolved, as its own standalone
 * server is: next.config.ts is not compiled again at each start, so Next's native
 * compiler (SWC, about 30 MB of the server's memory) is never loaded.
 */
function useBuiltNextConfig(): void {
  const manifest = path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "required-server-files.json");
  const built = (JSON.parse(readFileSync(manifest, "utf8")) as { config?: object }).config;
  if (built) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built);
}

/** An RFC 9457 body for answers given before Next.js runs (lib/http/problem.ts needs the app's modules). */
function problemJson(status: number, code: string, title: string, detail: string): string {
  return JSON.stringify({ type: `urn:driftwatch:problem:${code}`, title, status, detail, code });
}

function securityHeaders(): Record<string, string> {
  return { ...Object.fromEntries(FIXED_SECURITY_HEADERS.map((h) => [h.key, h.value])), "content-security-policy": apiContentSecurityPolicy() };
}

/**
 * A declared body up to this size is read and dropped after a 413, as Node does for any request
 * left unread: the client finishes sending and reads the answer. Closing at once made a client
 * still writing fail with a broken pipe instead (fetch never saw the 413). Larger ones are cut off.
 */
const DRAIN_REFUSED_BODY_BYTES = 16 * 1024 * 1024;

/** `close`: end the connection after the answer, so the rest of the request is never read. */
function refuse(res: http.ServerResponse, status: number, code: string, title: string, detail: string, opts: { close: boolean } = { close: true }) {
  const body = problemJson(status, code, title, detail);
  res.writeHead(status, {
    ...securityHeaders(), "content-type": "application/problem+json", "content-length": Buffer.byteLength(body), "cache-control": "no-store",
    ...(opts.close ? { connection: "close" } : {}),
  });
  res.end(body);
}

/**
 * API paths and /metrics: a policy that allows nothing on every answer, and
 * problem+json for an unknown path or a wrong method (Next.js would answer
 * with an HTML page or an empty 405). Done here rather than in proxy.ts, so an
 * API request costs no proxy round. True when the request was answered.
 */
function routeApi(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const pathname = (req.url ?? "/").split("?")[0]!;
  const api = pathname === "/api" || pathname.startsWith("/api/");
  if (!api && pathname !== "/metrics") return false;
  res.setHeader("content-security-policy", apiContentSecurityPolicy());
  if (!api) return false;
  const method = req.method ?? "GET";
  const match = matchApiRoute(pathname, method);
  if (match.kind === "not_found" || match.kind === "method") {
    const problem = match.kind === "not_found"
      ? problemBody("not_found", `No API route ${pathname}.`)
      : problemBody("method_not_allowed", `${method} is not supported here; use ${match.allowed.join(", ")}.`);
    const body = JSON.stringify(problem);
    res.writeHead(problem.status, {
      ...securityHeaders(), "content-type": "application/problem+json", "content-length": Buffer.byteLength(body), "cache-control": "no-store",
      ...(match.kind === "method" ? { allow: match.allowed.join(", ") } : {}),
    });
    res.end(method === "HEAD" ? undefined : body);
    return true;
  }
  return false;
}

function decodablePath(target: string): boolean {
  try {
    decodeURIComponent(target.split("?")[0]!);
    return true;
  } catch {
    return false;
  }
}

export function registerStartCommand(program: Command) {
  program
    .command("start")
    .description("migrate the database, then serve the web app, the API and the scheduler")
    .option("--port <n>", "port to listen on (PORT, default 3000)", (v) => String(wholeNumber("--port", { min: 1, max: 65535 })(v)))
    .option("--host <address>", "address to listen on (HOST, default 127.0.0.1)")
    .option("--eol <bool>", "end-of-life lookups (false for offline servers)", bool("--eol"))
    .option("--no-scheduler", "serve only; run `driftwatch worker` elsewhere for checks and notifications")
    .action(async (opts: StartOptions) => {
      const port = opts.port === undefined ? undefined : Number(opts.port);
      if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new Error(`--port: expected a port number, got ${opts.port}`);
      const config = loadConfig(process.env, {
        ...(port !== undefined ? { port } : {}),
        ...(opts.host ? { host: opts.host } : {}),
        ...(opts.eol === false ? { eolEnabled: false } : {}),
      });
      if (port !== undefined && !process.env.DRIFTWATCH_BASE_URL) config.baseUrl = `http://localhost:${port}`;
      setLogLevel(config.logLevel);
      tuneRuntime();
      if (!existsSync(path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) throw new Error("the web app is not built; run npm run build (npm start does it for you)");

      const started = Date.now();
      const database = await openDatabase(config, { log: (l) => log.info(l) });
      let stopping = false;
      const stopDatabase = async () => database.stop().catch((err: unknown) => log.warn(`stopping the database: ${String(err)}`));
      let authSecret: string;
      try {
        await migrateDatabase(database.url, { log: (l) => log.info(l) });
        authSecret = await resolveAuthSecret({ configured: config.authSecret, dataDir: config.dataDir, databaseUrl: database.url, embedded: database.embedded });
      } catch (err) {
        await stopDatabase();
        throw err;
      }
      exportConfig(config, database.url, authSecret);

      // tsx turns Node's source-map support on; with it, Node reads and keeps the source map of every
      // chunk of the Next.js build it loads: about 50 MB of an idle server's heap (RSS 390 → 250 MB).
      // Logged stack traces then point into the built and transpiled code.
      process.setSourceMapsEnabled(false);
      useBuiltNextConfig();
      const next = (await import("next")).default;
      const app = next({ dev: false, dir: ROOT, hostname: config.host, port: config.port });
      await app.prepare();
      const handler = app.getRequestHandler();
      const server = http.createServer((req, res) => {
        // A declared body over the API's 1 MiB limit (lib/http/route.ts) is refused before Next.js reads any of it.
        const declared = Number(req.headers["content-length"] ?? 0);
        if (declared > 1024 * 1024) return void refuse(res, 413, "payload_too_large", "Payload too large", "Request bodies are limited to 1048576 bytes.", { close: declared > DRAIN_REFUSED_BODY_BYTES });
        // Next.js answers a path whose percent-escapes are not UTF-8 (/services/%ff) with a bare 500.
        if (!decodablePath(req.url ?? "/")) return void refuse(res, 400, "bad_request", "Bad request", "The path's percent-escapes are not valid UTF-8.");
        // Next.js resolves dot segments, even percent-encoded ones, and redirects; no API path has one.
        if (/^\/api(\/|$)/.test(req.url ?? "") && /\/(?:\.|%2e){1,2}(?:[/?#]|$)/i.test(req.url ?? "")) return void refuse(res, 404, "not_found", "Not found", "API paths have no . or .. segments.");
        if (routeApi(req, res)) return;
        const xff = forwardedFor(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
        if (xff) req.headers["x-forwarded-for"] = xff;
        else delete req.headers["x-forwarded-for"];
        // Bearer-authenticated API requests skip Next.js's router (lib/server/api-dispatch.ts).
        dispatchApi(req, res)
          .then((answered) => (answered ? undefined : handler(req, res)))
          .catch((err: unknown) => {
            log.error(`request failed: ${String(err)}`);
            if (!res.headersSent) {
              res.writeHead(500, { "content-type": "application/problem+json" });
              res.end(JSON.stringify({ type: "urn:driftwatch:problem:internal", title: "Internal error", status: 500, detail: "Something went wrong on our side." }));
            }
          });
      });
      server.keepAliveTimeout = 65_000;
      // A body dripped slowly holds a request at most this long (Node's default is 5 minutes).
      server.requestTimeout = 60_000;
      // What Node refuses before any handler runs (a request line or headers over 16 KiB, malformed HTTP)
      // is answered with problem+json too, not Node's bare status line.
      server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
        if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
        const [status, code, title, detail] =
          err.code === "HPE_HEADER_OVERFLOW"
            ? [431, "headers_too_large", "Request header fields too large", "The request line and headers are limited to 16 KiB."]
            : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
              ? [408, "request_timeout", "Request timeout", "The request was not received in time."]
              : [400, "bad_request", "Bad request", "The request is not valid HTTP."];
        const body = problemJson(status, code, title, detail);
        socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`);
      });
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.port, config.host, resolve);
      });
      // Compiles the API's route modules for dispatchApi now rather than at the first request.
      preloadApiRoutes().catch((err: unknown) => log.warn(`loading the API routes: ${String(err)}`));
      const background = opts.scheduler === false ? null : await startBackgroundWork({ config, databaseUrl: database.url });
      log.info(`Driftwatch is serving ${config.baseUrl} (listening on ${config.host}:${config.port}, ${database.embedded ? "embedded database" : "external database"}, ready in ${Date.now() - started} ms)`);

      const shutdown = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        log.info(`${signal}: shutting down`);
        const force = setTimeout(() => process.exit(1), 30_000);
        force.unref();
        await background?.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 5_000).unref();
        });
        await stopDatabase();
        process.exit(0);
      };
      process.on("SIGINT", () => void shutdown("SIGINT"));
      process.on("SIGTERM", () => void shutdown("SIGTERM"));
    });
}
