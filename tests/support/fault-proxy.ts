// A small fault-injecting HTTP proxy on loopback, in front of a real upstream
// (the docker-registry, a replay server). A rule picks, per request, what goes
// wrong: a slow answer, a status with its headers (500, 429 + Retry-After), a
// truncated or malformed body, a redirect, a dropped connection; otherwise the
// request is forwarded untouched. Every request is recorded so tests can count
// them (e.g. that a Retry-After was honoured and nothing was hammered).
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ProxyRequest = { method: string; path: string; at: number; fault: Fault["kind"] };

export type Fault =
  /** Forward to the upstream unchanged. */
  | { kind: "pass" }
  /** Answer this instead of the upstream. */
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string }
  /** Wait, then forward (longer than the client's timeout: a timeout). */
  | { kind: "delay"; ms: number }
  /**
   * Forward, but cut the body to `fraction` of it. `declared: "short"` sends a
   * consistent Content-Length (a complete, truncated document); `"full"`
   * declares the whole length and drops the connection midway.
   */
  | { kind: "truncate"; fraction?: number; declared?: "short" | "full" }
  /** 200 with a body that is not the JSON the client expects. */
  | { kind: "malformed"; body?: string; contentType?: string }
  /** Redirect elsewhere (a foreign host). */
  | { kind: "redirect"; location: string; status?: number }
  /** Drop the connection without an answer. */
  | { kind: "reset" };

export type FaultRule = (req: { method: string; path: string; index: number }) => Fault | undefined | Promise<Fault | undefined>;

export type FaultProxy = {
  /** http://127.0.0.1:port */
  url: string;
  /** 127.0.0.1:port, for image references and insecure-host lists. */
  host: string;
  requests: ProxyRequest[];
  /** Requests whose path (with query) matches, optionally with one method. */
  count: (match?: string | RegExp, method?: string) => number;
  /** Replace the rule; no rule forwards everything. */
  setRule: (rule: FaultRule | null) => void;
  close: () => Promise<void>;
};

function forward(upstream: URL, req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: upstream.host };
    const out = http.request(
      { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    out.on("error", reject);
    out.end(body);
  });
}

function matches(r: ProxyRequest, match?: string | RegExp, method?: string): boolean {
  if (method && r.method !== method) return false;
  if (match === undefined) return true;
  return typeof match === "string" ? r.path.includes(match) : match.test(r.path);
}

/** Start a proxy to `upstream` (http://host:port) on a free loopback port. */
export async function startFaultProxy(upstream: string, rule: FaultRule | null = null): Promise<FaultProxy> {
  const target = new URL(upstream);
  let current = rule;
  const requests: ProxyRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const method = req.method ?? "GET";
        const path = req.url ?? "/";
        const index = requests.length;
        const fault: Fault = (current ? await current({ method, path, index }) : undefined) ?? { kind: "pass" };
        requests.push({ method, path, at: Date.now(), fault: fault.kind });
        try {
          switch (fault.kind) {
            case "reset":
              req.socket.destroy();
              return;
            case "status":
              res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
              res.end(method === "HEAD" ? undefined : (fault.body ?? ""));
              return;
            case "malformed":
              res.writeHead(200, { "content-type": fault.contentType ?? "application/json" });
              res.end(method === "HEAD" ? undefined : (fault.body ?? '{"name": "x", "tags": ["1.0", '));
              return;
            case "redirect":
              res.writeHead(fault.status ?? 307, { location: fault.location });
              res.end();
              return;
            case "delay":
              await new Promise((r) => setTimeout(r, fault.ms));
              if (res.destroyed || req.socket.destroyed) return;
              break;
            default:
              break;
          }
          const up = await forward(target, req, Buffer.concat(chunks));
          const headers = { ...up.headers };
          delete headers["transfer-encoding"];
          delete headers.connection;
          if (fault.kind === "truncate" && method !== "HEAD") {
            const cut = up.body.subarray(0, Math.floor(up.body.length * (fault.fraction ?? 0.5)));
            if (fault.declared === "full") {
              res.writeHead(up.status, { ...headers, "content-length": String(up.body.length) });
              res.write(cut, () => setTimeout(() => req.socket.destroy(), 20));
              return;
            }
            res.writeHead(up.status, { ...headers, "content-length": String(cut.length) });
            res.end(cut);
            return;
          }
          res.writeHead(up.status, headers);
          res.end(method === "HEAD" ? undefined : up.body);
        } catch (err) {
          if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
          res.end(`fault proxy: ${(err as Error).message}`);
        }
      })();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    count: (match, method) => requests.filter((r) => matches(r, match, method)).length,
    setRule: (r) => {
      current = r;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback server that only counts connections: a "foreign host" that must never be contacted. */
export async function startConnectionCounter(): Promise<{ host: string; port: number; connections: () => number; close: () => Promise<void> }> {
  const net = await import("node:net");
  let n = 0;
  const server = net.createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { host: `127.0.0.1:${port}`, port, connections: () => n, close: () => new Promise<void>((r) => server.close(() => r())) };
}
