// Real Helm chart repositories on loopback, made with the real `helm` (kube-tools.ts): charts
// packaged with `helm package`, a classic repository whose index.yaml `helm repo index` wrote,
// served with ETags, and charts pushed as OCI artifacts with `helm push`.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { kubeTools } from "./kube-tools";

const run = promisify(execFile);

export type ChartWorkshop = {
  dir: string;
  helm: (args: string[]) => Promise<string>;
  /** `helm create` then `helm package` at each version; returns the .tgz paths. */
  packageChart: (name: string, versions: { version: string; appVersion?: string }[], into: string) => Promise<string[]>;
  /** `helm push <tgz> oci://<registryHost>/<namespace> --plain-http`. */
  push: (tgz: string, registryHost: string, namespace: string) => Promise<void>;
  close: () => void;
};

export async function chartWorkshop(): Promise<ChartWorkshop> {
  const { helm: bin } = await kubeTools();
  const dir = mkdtempSync(path.join(os.tmpdir(), "dw-charts-"));
  const env = { ...process.env, HELM_CONFIG_HOME: path.join(dir, ".config"), HELM_CACHE_HOME: path.join(dir, ".cache"), HELM_DATA_HOME: path.join(dir, ".data") };
  const helm = async (args: string[]) => (await run(bin, args, { cwd: dir, env, timeout: 60_000 })).stdout;
  return {
    dir,
    helm,
    async packageChart(name, versions, into) {
      mkdirSync(into, { recursive: true });
      if (!existsSync(path.join(dir, name))) await helm(["create", name]);
      const out: string[] = [];
      for (const v of versions) {
        await helm(["package", path.join(dir, name), "--version", v.version, ...(v.appVersion ? ["--app-version", v.appVersion] : []), "-d", into]);
        out.push(path.join(into, `${name}-${v.version}.tgz`));
      }
      return out;
    },
    async push(tgz, registryHost, namespace) {
      await helm(["push", tgz, `oci://${registryHost}/${namespace}`, "--plain-http"]);
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export type ChartRepositoryServer = {
  url: string;
  host: string;
  /** Requests for index.yaml, with the status answered. */
  requests: { path: string; status: number; ifNoneMatch: string | null }[];
  /** Write index.yaml again (`helm repo index`) after adding packages. */
  reindex: () => Promise<void>;
  close: () => Promise<void>;
};

/** Serve `root` over http on loopback as a classic repository, its index.yaml written by `helm repo index`. */
export async function serveChartRepository(workshop: ChartWorkshop, root: string): Promise<ChartRepositoryServer> {
  const requests: ChartRepositoryServer["requests"] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const file = path.join(root, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ""));
    if (!file.startsWith(root) || !existsSync(file) || url.pathname === "/") {
      requests.push({ path: url.pathname, status: 404, ifNoneMatch: req.headers["if-none-match"] ?? null });
      res.writeHead(404, { "content-type": "text/plain" }).end("404 page not found\n");
      return;
    }
    const body = readFileSync(file);
    const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
    if (req.headers["if-none-match"] === etag) {
      requests.push({ path: url.pathname, status: 304, ifNoneMatch: etag });
      res.writeHead(304, { etag }).end();
      return;
    }
    requests.push({ path: url.pathname, status: 200, ifNoneMatch: req.headers["if-none-match"] ?? null });
    res.writeHead(200, { "content-type": url.pathname.endsWith(".yaml") ? "text/yaml" : "application/gzip", etag }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `http://${host}`;
  const reindex = async () => {
    await workshop.helm(["repo", "index", root, "--url", `${url}/`]);
  };
  await reindex();
  return { url, host, requests, reindex, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** index.yaml as served, for tests that check what the client read. */
export const indexYamlOf = (root: string) => readFileSync(path.join(root, "index.yaml"), "utf8");
