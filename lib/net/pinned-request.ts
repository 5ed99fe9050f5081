// One HTTP request to an address checked by checkDestination. The socket goes
// to that address (the `lookup` hook answers with it), while the Host header
// and TLS server name stay those of the URL. Redirects are never followed.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { CheckedDestination } from "./destination";

export type PinnedRequest = {
  destination: CheckedDestination;
  method: "POST" | "PUT" | "GET";
  headers: Record<string, string>;
  body?: string;
  /** Covers connecting, sending and reading the answer. */
  timeoutMs: number;
  /** The answer's body is kept up to this size and the rest discarded. */
  maxResponseBytes?: number;
};

export type PinnedResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
};

export type OutboundFailureKind = "timeout" | "connection_refused" | "network";

/** A request that got no HTTP answer. The message names the host only, never the URL. */
export class OutboundRequestError extends Error {
  readonly kind: OutboundFailureKind;
  readonly code: string | undefined;
  constructor(kind: OutboundFailureKind, message: string, opts: { code?: string | undefined; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = "OutboundRequestError";
    this.kind = kind;
    this.code = opts.code;
  }
}

const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024;

function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export function requestPinned(req: PinnedRequest): Promise<PinnedResponse> {
  const { destination: dest } = req;
  const isHttps = dest.url.protocol === "https:";
  const where = dest.url.host;
  const body = req.body ?? "";
  const maxBytes = req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  return new Promise<PinnedResponse>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };

    const options: https.RequestOptions = {
      method: req.method,
      host: dest.hostname,
      port: dest.port,
      path: `${dest.url.pathname}${dest.url.search}`,
      headers: { ...req.headers, Host: dest.url.host, "Content-Length": String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(dest.address, dest.family),
      // A fresh socket each time: a pooled one could outlive the check.
      agent: false,
    };
    if (isHttps && !dest.literal) options.servername = dest.hostname;

    const request = (isHttps ? https : http).request(options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        finish(() => {
          response.destroy();
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") });
        });
      response.on("data", (chunk: Buffer) => {
        if (size < maxBytes) chunks.push(chunk.subarray(0, maxBytes - size));
        size += chunk.length;
        if (size >= maxBytes) done();
      });
      response.on("end", done);
      response.on("error", done);
    });

    const timer = setTimeout(() => {
      finish(() => reject(new OutboundRequestError("timeout", `${where} did not answer within ${req.timeoutMs} ms.`)));
      request.destroy();
    }, req.timeoutMs);

    request.on("error", (cause: NodeJS.ErrnoException) => {
      const code = typeof cause.code === "string" ? cause.code : undefined;
      const refused = code === "ECONNREFUSED";
      finish(() =>
        reject(
          new OutboundRequestError(
            refused ? "connection_refused" : "network",
            refused ? `${where} refused the connection.` : `${where} could not be reached${code ? ` (${code})` : ""}.`,
            { code, cause },
          ),
        ),
      );
    });
    request.end(body);
  });
}
