// Commands that read or change the service talk to the REST API with
// --url/--token (or DRIFTWATCH_URL/DRIFTWATCH_TOKEN).
import type { Command } from "commander";
import { AppError } from "@/lib/domain/errors";
import { httpUrl } from "./options";
import { UsageError } from "./output";

export type RemoteFlags = { url?: string; token?: string; json?: boolean };

export function remoteOptions(cmd: Command): Command {
  return cmd
    .option("--url <url>", "Driftwatch server (DRIFTWATCH_URL, default http://localhost:3000)", httpUrl("--url"))
    .option("--token <token>", "API token (DRIFTWATCH_TOKEN)")
    .option("--json", "print JSON");
}

export async function callApi<T>(flags: RemoteFlags, method: string, path: string, body?: unknown): Promise<T> {
  const base = (flags.url ?? process.env.DRIFTWATCH_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  const token = flags.token ?? process.env.DRIFTWATCH_TOKEN;
  if (!token) throw new UsageError("--token is required (or DRIFTWATCH_TOKEN); create one with driftwatch token create");
  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    throw new Error(`cannot reach ${base}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) {
    let problem: { detail?: string; title?: string; errors?: { pointer: string; detail: string }[] } = {};
    try {
      problem = JSON.parse(text) as typeof problem;
    } catch {
      /* not problem+json */
    }
    const first = problem.errors?.[0];
    const where = first ? ` (${first.pointer}: ${first.detail})` : "";
    throw new AppError("bad_request", `${res.status} ${problem.detail ?? problem.title ?? (text.slice(0, 200) || res.statusText)}${where}`);
  }
  return (text ? JSON.parse(text) : null) as T;
}
