// A loopback HTTP server that answers with recorded, real-shaped bodies, for
// adapters whose real API cannot run here (Docker, Kubernetes, Nomad, GitHub,
// GitLab, endoflife.date). It records every request so tests can count them.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";

export type RecordedRequest = {
  method: string;
  path: string; // path + query, as received
  headers: http.IncomingHttpHeaders;
  body: string;
};

export type ReplyInit = {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Wait before answering (timeouts). */
  delayMs?: number;
};

export type Route = {
  method?: string; // default GET; "*" for any
  /** Exact path (query ignored unless the route path has a `?`) or a RegExp on path+query. */
  path: string | RegExp;
  reply: ReplyInit | ((req: RecordedRequest, url: URL) => ReplyInit | Promise<ReplyInit>);
};

export type ReplayServer = {
  url: string; // http://127.0.0.1:port (or http://localhost for a socket)
  socketPath?: string;
  requests: RecordedRequest[];
  count: (match?: string | RegExp, method?: string) => number;
  setRoutes: (routes: Route[]) => void;
  close: () => Promise<void>;
};

/** Read a JSON fixture under tests/fixtures. */
export function fixture<T = unknown>(relative: string): T {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "fixtures", relative), "utf8")) as T;
}

function matches(route: Route, method: string, url: URL): boolean {
  const m = route.method ?? "GET";
  if (m !== "*" && m !== method && !(m === "GET" && method === "HEAD")) return false;
  const full = url.pathname + url.search;
  if (typeof route.path === "string") return route.path.includes("?") ? route.path === full : route.path === url.pathname;
  return route.path.test(full);
}

/** Start a replay server on 127.0.0.1 (random port), or on a unix socket when `socketPath` is given. */
export async function startReplayServer(routes: Route[], opts: { socketPath?: string } = {}): Promise<ReplayServer> {
  let table = routes;
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://replay.local");
        const rec: RecordedRequest = {
          method: req.method ?? "GET",
          path: url.pathname + url.search,
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        requests.push(rec);
        const route = table.find((r) => matches(r, rec.method, url));
        const init: ReplyInit = route
          ? typeof route.reply === "function"
            ? await route.reply(rec, url)
            : route.reply
          : { status: 404, body: { message: "not found in replay table", path: rec.path } };
        if (init.delayMs) await new Promise((r) => setTimeout(r, init.delayMs));
        if (res.destroyed) return;
        const isText = typeof init.body === "string";
        const payload = init.body === undefined ? "" : isText ? (init.body as string) : JSON.stringify(init.body);
        const headers: Record<string, string> = {
          ...(init.body !== undefined && !isText ? { "content-type": "application/json" } : {}),
          ...(init.headers ?? {}),
        };
        res.writeHead(init.status ?? 200, headers);
        res.end(rec.method === "HEAD" ? undefined : payload);
      })().catch((err: unknown) => {
        res.writeHead(500);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => {
    if (opts.socketPath) server.listen(opts.socketPath, resolve);
    else server.listen(0, "127.0.0.1", resolve);
  });
  const url = opts.socketPath ? "http://localhost" : `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    socketPath: opts.socketPath,
    requests,
    count: (match, method) =>
      requests.filter(
        (r) =>
          (!method || r.method === method) &&
          (match === undefined || (typeof match === "string" ? r.path.startsWith(match) : match.test(r.path))),
      ).length,
    setRoutes: (next) => {
      table = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
