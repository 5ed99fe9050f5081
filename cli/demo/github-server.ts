// A loopback stand-in for GitHub's REST API that answers the releases list of
// the demo's repositories (GET /repos/{owner}/{repo}/releases), shaped like
// GitHub's and dated from the dataset, so the demo's releases have their
// published dates offline.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { demoGithubReleases } from "@/lib/domain/demo/plan";

export type GithubServer = { apiUrl: string; close(): Promise<void> };

/** `plannedAt`: the instant the demo's dataset is counted back from (ms). */
export async function startGithubServer(plannedAt: number): Promise<GithubServer> {
  const releases = demoGithubReleases(plannedAt);
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://localhost");
    const repo = /^\/repos\/([^/]+\/[^/]+)\/releases$/.exec(pathname)?.[1];
    const list = repo ? releases.get(decodeURIComponent(repo)) : undefined;
    if (!list) {
      const text = JSON.stringify({ message: "Not Found", documentation_url: "https://docs.github.com/rest/releases/releases#list-releases", status: "404" });
      res.writeHead(404, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
      return void res.end(text);
    }
    const text = JSON.stringify(list);
    res.writeHead(200, {
      "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text),
      "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999", "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
    });
    res.end(text);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { apiUrl: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
