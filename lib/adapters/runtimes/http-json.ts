// A small JSON-over-HTTP client for the runtime APIs: Docker Engine (unix socket or TCP), Kubernetes
// (HTTPS with a CA and client certificates) and Nomad. Vendor failures become AppError codes; bodies
// are parsed with zod on arrival, so a transform never sees an unchecked shape.
import http from "node:http";
import https from "node:https";
import type { z } from "zod";
import { AppError, type ErrorCode } from "@/lib/domain/errors";

export type TlsOptions = {
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  /** false accepts any server certificate (kubeconfig `insecure-skip-tls-verify`). */
  rejectUnauthorized?: boolean;
  servername?: string;
};

export type HttpEndpoint = {
  /** `http://host:port`, `https://host:port`; for a unix socket the host part is ignored. */
  baseUrl: string;
  socketPath?: string;
  headers?: Record<string, string>;
  tls?: TlsOptions;
  timeoutMs?: number;
  /** Names the system in error messages: "Docker Engine", "Kubernetes API". */
  label: string;
};

export type HttpResult = { status: number; headers: http.IncomingHttpHeaders; body: string };

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** One request; resolves with any status, rejects only when no answer came. */
export function httpRequest(
  endpoint: HttpEndpoint,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const url = new URL(path, endpoint.baseUrl.replace(/\/+$/, "") + "/");
  const isHttps = url.protocol === "https:";
  const options: https.RequestOptions = {
    method: init.method ?? "GET",
    path: url.pathname + url.search,
    headers: { accept: "application/json", ...endpoint.headers, ...init.headers },
    timeout: endpoint.timeoutMs ?? 15_000,
  };
  if (endpoint.socketPath) options.socketPath = endpoint.socketPath;
  else {
    options.hostname = url.hostname.replace(/^\[|\]$/g, "");
    options.port = url.port || (isHttps ? 443 : 80);
  }
  if (isHttps) {
    const tls = endpoint.tls ?? {};
    Object.assign(options, {
      ca: tls.ca,
      cert: tls.cert,
      key: tls.key,
      rejectUnauthorized: tls.rejectUnauthorized ?? true,
      servername: tls.servername,
    });
  }
  const where = endpoint.socketPath ? `unix://${endpoint.socketPath}` : url.host;
  return new Promise((resolve, reject) => {
    const req = (isHttps ? https : http).request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) {
          req.destroy(new AppError("unavailable", `${endpoint.label} at ${where} answered with more than 64 MiB.`));
          return;
        }
        chunks.push(c);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new AppError("unavailable", `${endpoint.label} at ${where} did not answer in time.`)));
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (err instanceof AppError) return reject(err);
      const code = err.code ? ` (${err.code})` : "";
      reject(new AppError("unavailable", `Cannot reach ${endpoint.label} at ${where}${code}: ${err.message}`, { cause: err }));
    });
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return "unauthenticated";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "unavailable";
  return "bad_request";
}

/** The vendor's own message from an error body (Docker `message`, Kubernetes Status `message`). */
function vendorMessage(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "message" in parsed && typeof parsed.message === "string") {
      return parsed.message.slice(0, 300);
    }
  } catch {
    // not JSON: Nomad answers errors as plain text
  }
  return body.trim().slice(0, 300);
}

/** GET (or another method) a JSON body and parse it with `schema`; non-2xx throws an AppError. */
export async function requestJson<S extends z.ZodType>(
  endpoint: HttpEndpoint,
  path: string,
  schema: S,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<z.infer<S>> {
  const res = await httpRequest(endpoint, path, init);
  const pathOnly = path.split("?")[0];
  if (res.status < 200 || res.status > 299) {
    const detail = vendorMessage(res.body);
    throw new AppError(codeForStatus(res.status), `${endpoint.label} answered ${res.status} for ${pathOnly}${detail ? `: ${detail}` : ""}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch (err) {
    throw new AppError("unavailable", `${endpoint.label} answered ${pathOnly} with a body that is not JSON.`, { cause: err });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue ? issue.path.join(".") || "(root)" : "(root)";
    throw new AppError("unavailable", `${endpoint.label} answered ${pathOnly} with an unexpected shape at ${at}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/** Run `fn` over `items` with at most `limit` calls in flight, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
