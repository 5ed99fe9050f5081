// Request bodies and query strings as the API takes them: JSON up to one
// limit, well-formed text, bounded nesting. The Node server refuses a larger
// declared body before Next.js reads it; MCP's transport takes the same limit.
import { AppError } from "@/lib/domain/errors";

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

/**
 * A body the production server's direct API path reads from Node's stream, only
 * when the handler asks for it (after authentication) and only up to the limit;
 * "too_large" when reading stopped there. A web stream per request cost more CPU
 * than parsing the JSON inside.
 */
export type DirectBody = (limitBytes: number) => Promise<Buffer | "too_large">;

const UTF8 = new TextDecoder("utf-8", { fatal: true });

export const bodyTooLarge = () => new AppError("payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);

/** The parsed JSON body, or undefined when none was sent without a content type. */
export async function readJsonBody(req: Request, direct: DirectBody | undefined): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw bodyTooLarge();
  if (!req.body && !direct) {
    if (type === "") return undefined;
  }
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new AppError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
  }
  let bytes: Buffer;
  if (direct) {
    const read = await direct(MAX_BODY_BYTES);
    if (read === "too_large") throw bodyTooLarge();
    bytes = read;
  } else {
    const reader = req.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw bodyTooLarge();
      }
      chunks.push(value);
    }
    bytes = Buffer.concat(chunks);
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new AppError("bad_request", "The body is not valid UTF-8.");
  }
  if (text.trim() === "") throw new AppError("bad_request", "The body is empty; send a JSON document.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new AppError("bad_request", `The body is not valid JSON: ${(err as Error).message}`);
  }
  checkJsonInput(value, "");
  return value;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses, before any schema or service sees them, what no field may hold:
 * NUL characters (PostgreSQL cannot store them in text), unpaired surrogates
 * (a JSON `\uD800` escape: no UTF-8 spelling, and PostgreSQL's JSON refuses it), and nesting deeper
 * than MAX_JSON_DEPTH (serialising it again would recurse that deep). The walk
 * stops at that depth too, and names a value's JSON pointer only when refusing it
 * (every report passes through here, so no pointer is built per value).
 */
export function checkJsonInput(value: unknown, root: "" | "/query"): void {
  const path: (string | number)[] = [];
  const pointer = (...last: string[]) => root + [...path, ...last].map((k) => `/${String(k).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
  const nul = (at: string, detail: string) => new AppError("invalid_input", "Text must not contain NUL characters.", { errors: [{ pointer: at, detail }] });
  const unpaired = (at: string, detail: string) => new AppError("invalid_input", "Text must be well-formed Unicode.", { errors: [{ pointer: at, detail }] });
  const visit = (v: unknown, depth: number): void => {
    if (typeof v === "string") {
      if (v.includes("\u0000")) throw nul(pointer(), "must not contain NUL (\\u0000)");
      // JSON's \uD800 escapes decode to strings no database column can hold as they are.
      if (LONE_SURROGATE.test(v)) throw unpaired(pointer(), "must be well-formed Unicode (no unpaired surrogate escape)");
      return;
    }
    if (v === null || typeof v !== "object") return;
    if (depth >= MAX_JSON_DEPTH) throw new AppError("bad_request", `The body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        visit(v[i], depth + 1);
        path.pop();
      }
      return;
    }
    const object = v as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      if (key.includes("\u0000")) throw nul(pointer(key), "the name must not contain NUL (\\u0000)");
      if (LONE_SURROGATE.test(key)) throw unpaired(pointer(key), "the name must be well-formed Unicode (no unpaired surrogate escape)");
      path.push(key);
      visit(object[key], depth + 1);
      path.pop();
    }
  };
  visit(value, 0);
}

/** The query string as an object: a repeated key's values as an array. */
export function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length > 1 ? all : all[0]!;
  }
  return out;
}
