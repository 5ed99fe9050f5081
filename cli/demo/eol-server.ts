// A loopback stand-in for endoflife.date's API v1 that replays recorded
// product bodies, so the demo shows end-of-life drift without the internet.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { RECORDED_EOL_GENERATED_AT, RECORDED_EOL_PRODUCTS } from "./eol-data";

export type EolServer = { apiUrl: string; close(): Promise<void> };

function answer(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export async function startEolServer(port = 0): Promise<EolServer> {
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    if (pathname === "/api/v1/identifiers/purl") {
      return answer(res, 200, { schema_version: "1.2.0", generated_at: RECORDED_EOL_GENERATED_AT, total: 0, result: [] });
    }
    const name = /^\/api\/v1\/products\/([^/]+)$/.exec(pathname)?.[1];
    const product = name ? RECORDED_EOL_PRODUCTS[decodeURIComponent(name)] : undefined;
    if (!name || !product) {
      res.writeHead(404, { "content-type": "text/html" });
      return void res.end("<html><body>Not found</body></html>");
    }
    answer(res, 200, {
      schema_version: "1.2.0",
      generated_at: RECORDED_EOL_GENERATED_AT,
      last_modified: RECORDED_EOL_GENERATED_AT,
      result: { name: decodeURIComponent(name), label: product.label, releases: product.releases },
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${bound}/api/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
