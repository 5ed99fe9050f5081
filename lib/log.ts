// One-line logs. Never pass secrets (tokens, keys, passwords, URLs with
// credentials) to these functions; `redact` strips the known shapes anyway.
type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };
let threshold: Level = (process.env.DRIFTWATCH_LOG_LEVEL as Level | undefined) ?? "info";

export function setLogLevel(level: Level) {
  threshold = level;
}

export function redact(text: string): string {
  return text
    .replace(/\bdwa?_[A-Za-z0-9_-]{8,}/g, (m) => `${m.slice(0, m.indexOf("_") + 5)}…`)
    .replace(/(\/\/[^:/@\s]+:)[^@\s]+@/g, "$1***@")
    .replace(/(authorization|private-token|password|secret|token)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, "$1$2***");
}

function write(level: Level, message: string, fields?: Record<string, unknown>) {
  if (ORDER[level] < ORDER[threshold]) return;
  const extra = fields && Object.keys(fields).length ? " " + JSON.stringify(fields) : "";
  const line = redact(`${new Date().toISOString()} ${level.padEnd(5)} ${message}${extra}`);
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const log = {
  debug: (m: string, f?: Record<string, unknown>) => write("debug", m, f),
  info: (m: string, f?: Record<string, unknown>) => write("info", m, f),
  warn: (m: string, f?: Record<string, unknown>) => write("warn", m, f),
  error: (m: string, f?: Record<string, unknown>) => write("error", m, f),
};
