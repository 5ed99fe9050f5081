// Loopback HTTP receivers for the channel tests: record what arrives, count
// connections (to prove that refused destinations were never contacted).
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };

export type Receiver = {
  port: number;
  url: (path?: string) => string;
  received: ReceivedRequest[];
  connections: () => number;
  close: () => Promise<void>;
};

export type Reply = (req: ReceivedRequest, res: http.ServerResponse) => void;

export async function startReceiver(reply: Reply = (_req, res) => res.writeHead(204).end()): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(entry);
      reply(entry, res);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
