// Shared by adapter tests that talk to replay servers: start servers that are
// closed after each test, read a recorded exchange, and expect an AppError.
import { afterEach } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { fixture, startReplayServer, type ReplayServer, type ReplyInit } from "./replay-server";

/** `serve(...)` starts a replay server that is closed after the current test. */
export function replayServersPerTest(): (...args: Parameters<typeof startReplayServer>) => Promise<ReplayServer> {
  const servers: ReplayServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (...args) => {
    const server = await startReplayServer(...args);
    servers.push(server);
    return server;
  };
}

/** A recorded `{status, headers, body}` exchange under tests/fixtures, with `{base}` replaced by `base`. */
export function recordedExchange(relative: string, base = ""): ReplyInit {
  const text = JSON.stringify(fixture(relative)).split("{base}").join(base);
  const { status, headers, body } = JSON.parse(text) as ReplyInit;
  return { status, headers, body };
}

/** The AppError a promise rejects with; anything else fails the test. */
export async function caught(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected an AppError");
}
