// What integration tests use: a fresh workspace with an owner, tokens of each
// role and an agent key, made through the same services the CLI uses; and an
// HTTP client whose every response is checked against the OpenAPI document.
import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { loadConfig } from "@/lib/config";
import { createDb, type Db } from "@/lib/db/client";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { createApiToken } from "@/lib/services/api-tokens/create";
import type { RequestCtx } from "@/lib/services/context";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { assertMatchesOpenApi } from "./openapi";
import { recordSecret } from "./secrets";

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string; contentType: string | null };

let sharedDb: Db | undefined;
export function testDb(): Db {
  sharedDb ??= createDb(inject("databaseUrl"), { max: 4 });
  return sharedDb;
}

export function baseUrl(): string {
  return inject("baseUrl");
}

export type RequestOptions = {
  token?: string | null;
  body?: unknown;
  /** Raw body (string or bytes), sent as is with `contentType`. */
  raw?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
  /** Skip the OpenAPI check (for deliberately odd requests whose answers are checked by hand). */
  skipContract?: boolean;
};

export async function request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Uint8Array | undefined;
  if (opts.raw !== undefined) {
    body = opts.raw;
    if (opts.contentType) headers["content-type"] = opts.contentType;
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] = opts.contentType ?? "application/json";
  }
  const res = await fetch(baseUrl() + path, { method, headers, body: body as BodyInit | undefined, redirect: "manual" });
  const text = await res.text();
  const contentType = res.headers.get("content-type");
  let parsed: unknown = text;
  if (contentType?.includes("json") && text) parsed = JSON.parse(text);
  if (!opts.skipContract) {
    const pathname = new URL(baseUrl() + path).pathname;
    await assertMatchesOpenApi(baseUrl(), method, pathname, res.status, contentType, text === "" ? null : parsed);
  }
  if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, headers: res.headers, body: parsed as T, text, contentType };
}

export const api = (token: string | null) => ({
  get: <T = any>(path: string, o: RequestOptions = {}) => request<T>("GET", path, { ...o, token }),
  post: <T = any>(path: string, body?: unknown, o: RequestOptions = {}) => request<T>("POST", path, { ...o, body, token }),
  patch: <T = any>(path: string, body?: unknown, o: RequestOptions = {}) => request<T>("PATCH", path, { ...o, body, token }),
  delete: <T = any>(path: string, o: RequestOptions = {}) => request<T>("DELETE", path, { ...o, token }),
});

export type TestWorkspace = {
  name: string;
  id: string;
  owner: { email: string; password: string };
  viewer: string;
  member: string;
  agentKey: string;
  ctx: RequestCtx;
};

/** A new workspace of its own, so tests can run in parallel and touch only their own rows. */
export async function makeWorkspace(prefix = "ws"): Promise<TestWorkspace> {
  const db = testDb();
  const name = `${prefix}-${randomUUID().slice(0, 8)}`;
  const owner = { email: `${name}@example.test`, password: `pw-${randomUUID()}` };
  const { workspaceId } = await setupWorkspace({ ctx: { db }, input: { workspace: name, email: owner.email, password: owner.password } });
  const ctx: RequestCtx = { db, config: loadConfig({}), get now() { return new Date(); }, actor: { kind: "system", workspaceId } };
  const viewer = (await createApiToken({ ctx, input: { name: "viewer", role: "viewer" } })).value;
  const member = (await createApiToken({ ctx, input: { name: "member", role: "member" } })).value;
  const agentKey = (await createAgentKey({ ctx, input: { name: "agent" } })).value;
  recordSecret("password", owner.password);
  recordSecret("API token", viewer);
  recordSecret("API token", member);
  recordSecret("agent key", agentKey);
  return { name, id: workspaceId, owner, viewer, member, agentKey, ctx };
}
