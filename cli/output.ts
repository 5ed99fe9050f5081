// How commands print: JSON with --json, aligned tables otherwise, and one
// clear line on stderr for errors.
import { AppError } from "@/lib/domain/errors";

export class UsageError extends Error {}

export function printJson(value: unknown) {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

export function printTable(rows: Record<string, unknown>[], columns?: string[]) {
  if (rows.length === 0) {
    process.stdout.write("(none)\n");
    return;
  }
  const cols = columns ?? Object.keys(rows[0]!);
  const cell = (v: unknown) => (v === null || v === undefined ? "-" : typeof v === "object" ? JSON.stringify(v) : String(v));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  process.stdout.write(line(cols.map((c) => c.toUpperCase())) + "\n");
  for (const r of rows) process.stdout.write(line(cols.map((c) => cell(r[c]))) + "\n");
}

/** One line, no stack: what went wrong and, where it helps, what to do. */
export function describeError(err: unknown): string {
  // lib/config's ConfigError, known by its name: importing lib/config would load zod into
  // commands that read no configuration (tags newest).
  if (err instanceof Error && err.name === "ConfigError") return `configuration: ${err.message}`;
  if (err instanceof AppError) {
    const first = err.errors?.[0];
    return first && first.detail !== err.message ? `${err.message} (${first.pointer || "/"}: ${first.detail})` : err.message;
  }
  if (err instanceof Error) return err.message.split("\n")[0]!;
  return String(err);
}

export function fail(err: unknown): never {
  process.stderr.write(`driftwatch: ${describeError(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
}
