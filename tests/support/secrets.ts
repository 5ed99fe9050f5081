// Every secret a test run hands out (passwords, API tokens, agent keys,
// webhook secrets, registry credentials) is written to the run directory, so
// that scripts/check-secrets-in-logs.mjs can prove none of them reached the
// server's logs. The run directory comes from tests/setup/global.ts.
import { appendFileSync } from "node:fs";
import path from "node:path";

export const RUN_DIR_ENV = "DRIFTWATCH_TEST_RUN_DIR";
export const SECRETS_FILE = "secrets.jsonl";

export function recordSecret(kind: string, value: string): void {
  const dir = process.env[RUN_DIR_ENV];
  if (!dir || !value) return;
  appendFileSync(path.join(dir, SECRETS_FILE), JSON.stringify({ kind, value }) + "\n");
}

/** The file a server started for this run writes its output to, or null outside a test run. */
export function runLogFile(name: string): string | null {
  const dir = process.env[RUN_DIR_ENV];
  return dir ? path.join(dir, `${name}.log`) : null;
}
