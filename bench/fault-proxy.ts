// A fault-injecting HTTP reverse proxy on loopback: put it in front of any
// local HTTP server (the test registry, a replay server) and a chosen share of
// requests fail as a 500, a hang the client must time out on, or a connection
// reset; the rest pass through unchanged, optionally delayed. Counts what it
// did, so a soak or a test can state how many faults were injected.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type Fault = "500" | "timeout" | "reset";

export type FaultProxyOptions = {
  /** host:port of the upstream HTTP server. */
  target: string;
  /** Share of requests that fail, 0..1 (default 0). */
  failRate?: number;
  /** Which faults to draw from, evenly (default all three). */
  faults?: Fault[];
  /** Extra latency on every passed request, in ms (default 0). */
  delayMs?: number;
  /** How long a "timeout" fault holds the connection before dropping it (default 30 s). */
  hangMs?: number;
  /** Random source (default Math.random), for reproducible runs. */
  random?: () => number;
};

export type FaultProxy = {
  host: string; // 127.0.0.1:port
  url: string;
  counts: { passed: number; "500": number; timeout: number; reset: number };
  /** Change the failure rate or delay while running. */
  set: (opts: Partial<Pick<FaultProxyOptions, "failRate" | "delayMs" | "faults">>) => void;
  stop: () => Promise<void>;
};

export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  const [targetHost, targetPort] = [opts.target.split(":")[0]!, Number(opts.target.split(":")[1] ?? 80)];
  const state = { failRate: opts.failRate ?? 0, delayMs: opts.delayMs ?? 0, faults: opts.faults ?? (["500", "timeout", "reset"] as Fault[]) };
  const random = opts.random ?? Math.random;
  const hangMs = opts.hangMs ?? 30_000;
  const counts = { passed: 0, "500": 0, timeout: 0, reset: 0 };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const server = http.createServer((req, res) => {
    if (state.failRate > 0 && random() < state.failRate) {
      const fault = state.faults[Math.floor(random() * state.faults.length)]!;
      counts[fault]++;
      req.resume();
      if (fault === "500") {
        res.writeHead(500, { "content-type": "text/plain" }).end("injected failure\n");
      } else if (fault === "reset") {
        req.socket.resetAndDestroy();
      } else {
        later(hangMs, () => req.socket.destroy());
      }
      return;
    }
    const forward = () => {
      counts.passed++;
      const upstream = http.request(
        { host: targetHost, port: targetPort, method: req.method, path: req.url, headers: { ...req.headers, host: opts.target } },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on("error", () => req.socket.destroy());
      req.pipe(upstream);
    };
    if (state.delayMs > 0) later(state.delayMs, forward);
    else forward();
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    counts,
    set: (next) => {
      if (next.failRate !== undefined) state.failRate = next.failRate;
      if (next.delayMs !== undefined) state.delayMs = next.delayMs;
      if (next.faults !== undefined) state.faults = next.faults;
    },
    stop: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
