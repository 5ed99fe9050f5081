// A fake Docker Hub on loopback: the real registry behind a proxy that asks for
// a Bearer token from its own token service (anonymous, or signed in with
// Basic credentials), counts pulls (manifest GETs) per client address or per
// signed-in user in a sliding window, answers manifest HEADs and GETs with
// Docker Hub's `ratelimit-limit` / `ratelimit-remaining` headers, and refuses
// pulls past the limit with 429 TOOMANYREQUESTS. Its clock can be the test's,
// so hours pass in a test. Without auth and limits it stands for a mirror or
// pull-through cache that sends no rate-limit headers; without auth only, for
// one that passes Docker Hub's headers (and 429s) on.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type HubProxyOptions = {
  /** The registry behind it (http://127.0.0.1:port). */
  upstream: string;
  now?: () => number;
  anonymousLimit?: number;
  userLimit?: number;
  windowSeconds?: number;
  /** The one account that may sign in (a personal access token as its password). */
  user?: { username: string; token: string };
  /** Per request: answer this status instead (a failing read). */
  fail?: (req: { method: string; path: string }) => number | null;
  /** Ask for a token (default true); false: every request is the client address's. */
  auth?: boolean;
  /** Count pulls, send rate-limit headers and refuse past the limit (default true). */
  limits?: boolean;
};

export type Pull = { identity: string; at: number; path: string };

export type HubProxy = {
  url: string;
  host: string;
  /** Every pull let through, oldest first. */
  pulls: Pull[];
  /** Pulls refused with 429. */
  refused: Pull[];
  /** Requests by `METHOD kind` (`GET manifests`, `HEAD manifests`, `GET tags/list`, `GET blobs`, `GET token`). */
  requests: Map<string, number>;
  /** The most pulls any identity made inside one sliding window. */
  maxPullsInWindow(identity?: string): number;
  /** Pulls per hour since `start`, for the report. */
  pullsPerHour(start: number): number[];
  /** Pulls (manifest GETs let through) in each rate-limit window since `start`. */
  pullsPerWindow(start: number): number[];
  /** Manifests (path) pulled more than once, with how often. */
  pulledTwice(): Record<string, number>;
  /** Pulls made by someone else from the same address (the user's own `docker pull`s). */
  pullAs(identity: string, count: number): void;
  setFail(fail: HubProxyOptions["fail"] | null): void;
  close(): Promise<void>;
};

const HOUR = 3_600_000;

function kindOf(path: string): string {
  const p = path.split("?")[0] ?? "";
  if (p === "/token") return "token";
  return /^\/v2\/.+?\/(tags\/list|manifests|blobs)(?:\/|$)/.exec(p)?.[1] ?? "other";
}

export async function startHubProxy(opts: HubProxyOptions): Promise<HubProxy> {
  const now = opts.now ?? Date.now;
  const windowMs = (opts.windowSeconds ?? 3600) * 1000;
  const upstream = new URL(opts.upstream);
  const pulls: Pull[] = [];
  const refused: Pull[] = [];
  const requests = new Map<string, number>();
  const tokens = new Map<string, string>(); // token → identity
  let fail = opts.fail ?? null;
  let host = "";

  const limitOf = (identity: string) => (identity.startsWith("user:") ? (opts.userLimit ?? 100) : (opts.anonymousLimit ?? 10));
  const inWindow = (identity: string, at: number) => pulls.filter((p) => p.identity === identity && p.at > at - windowMs).length;
  const rateHeaders = (identity: string, remaining: number) => ({
    "ratelimit-limit": `${limitOf(identity)};w=${windowMs / 1000}`,
    "ratelimit-remaining": `${Math.max(0, remaining)};w=${windowMs / 1000}`,
    "docker-ratelimit-source": identity.replace(/^(ip|user):/, ""),
  });

  const server = http.createServer((req, res) => {
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const kind = kindOf(path);
    requests.set(`${method} ${kind}`, (requests.get(`${method} ${kind}`) ?? 0) + 1);
    req.resume();
    req.on("end", () => {
      if (kind === "token" && opts.auth !== false) {
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
        let identity = `ip:${req.socket.remoteAddress ?? "?"}`;
        if (basic) {
          const [username, token] = Buffer.from(basic, "base64").toString("utf8").split(":");
          if (!opts.user || username !== opts.user.username || token !== opts.user.token) {
            res.writeHead(401, { "content-type": "application/json" }).end('{"details":"incorrect username or password"}');
            return;
          }
          identity = `user:${username}`;
        }
        const token = `hub-${Math.random().toString(36).slice(2)}`;
        tokens.set(token, identity);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ token, expires_in: 300 }));
        return;
      }
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const identity = opts.auth === false ? `ip:${req.socket.remoteAddress ?? "?"}` : bearer ? tokens.get(bearer) : undefined;
      if (!identity) {
        const name = /^\/v2\/(.+?)\/(?:tags|manifests|blobs)\//.exec(path)?.[1] ?? "";
        res.writeHead(401, {
          "content-type": "application/json",
          "www-authenticate": `Bearer realm="http://${host}/token",service="registry.docker.io",scope="repository:${name}:pull"`,
        }).end('{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}');
        return;
      }
      const failWith = fail?.({ method, path });
      if (failWith) {
        res.writeHead(failWith, { "content-type": "application/json" }).end('{"errors":[{"code":"UNKNOWN","message":"injected"}]}');
        return;
      }
      let extra: Record<string, string> = {};
      if (kind === "manifests" && opts.limits === false) {
        if (method === "GET") pulls.push({ identity, at: now(), path });
      } else if (kind === "manifests") {
        const at = now();
        const used = inWindow(identity, at);
        if (method === "GET") {
          if (used >= limitOf(identity)) {
            refused.push({ identity, at, path });
            res.writeHead(429, { "content-type": "application/json", ...rateHeaders(identity, 0) })
              .end('{"errors":[{"code":"TOOMANYREQUESTS","message":"You have reached your unauthenticated pull rate limit."}]}');
            return;
          }
          pulls.push({ identity, at, path });
          extra = rateHeaders(identity, limitOf(identity) - used - 1);
        } else {
          extra = rateHeaders(identity, limitOf(identity) - used);
        }
      }
      const headers = { ...req.headers, host: upstream.host };
      delete headers.authorization;
      const out = http.request({ hostname: upstream.hostname, port: upstream.port, method, path, headers }, (up) => {
        const h = { ...up.headers, ...extra };
        delete h["transfer-encoding"];
        delete h.connection;
        res.writeHead(up.statusCode ?? 502, h);
        up.pipe(res);
      });
      out.on("error", (err) => {
        if (!res.headersSent) res.writeHead(502);
        res.end(String(err));
      });
      out.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `http://${host}`,
    host,
    pulls,
    refused,
    requests,
    maxPullsInWindow(identity) {
      let max = 0;
      for (const p of pulls) {
        if (identity && p.identity !== identity) continue;
        max = Math.max(max, pulls.filter((q) => q.identity === p.identity && q.at > p.at - windowMs && q.at <= p.at).length);
      }
      return max;
    },
    pullsPerHour(start) {
      const hours: number[] = [];
      for (const p of pulls) {
        const h = Math.floor((p.at - start) / HOUR);
        while (hours.length <= h) hours.push(0);
        hours[h]!++;
      }
      return hours;
    },
    pullsPerWindow(start) {
      const windows: number[] = [];
      for (const p of pulls) {
        const w = Math.floor((p.at - start) / windowMs);
        while (windows.length <= w) windows.push(0);
        windows[w]!++;
      }
      return windows;
    },
    pulledTwice() {
      const counts: Record<string, number> = {};
      for (const p of pulls) if (p.path !== "(someone else)") counts[p.path] = (counts[p.path] ?? 0) + 1;
      return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 1));
    },
    pullAs(identity, count) {
      for (let i = 0; i < count; i++) pulls.push({ identity, at: now(), path: "(someone else)" });
    },
    setFail(f) {
      fail = f ?? null;
    },
    // Stop listening first: a connection accepted after closeAllConnections would keep close() waiting.
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
