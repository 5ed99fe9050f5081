#!/usr/bin/env node
// Fails when a secret used by the tests appears in a server log of the run.
//   node scripts/check-secrets-in-logs.mjs <run dir>
// <run dir>/secrets.jsonl: {"kind","value"} per secret the tests created
// (tests/support/secrets.ts), plus every notification rule's secrets read from
// the database at the end of the run, each kind by its channel's own rule
// (webhook secrets and headers, tokens, routing keys, passwords, addresses
// that carry a token: tests/setup/global.ts).
// <run dir>/*.log: everything each `driftwatch start` of the run printed.
// Besides the recorded values, any whole API token or agent key (the log
// redacts them to a short prefix) counts as a leak. Hits are reported by kind,
// file and line, never with the secret itself.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const MIN_LENGTH = 6;
const WHOLE_CREDENTIAL = /\bdwa?_[A-Za-z0-9_-]{40}/g;

/** @returns {{ secrets: number, logs: string[], bytes: number, hits: { kind: string, file: string, line: number }[] }} */
export function checkSecretsInLogs(runDir) {
  const secretsFile = path.join(runDir, "secrets.jsonl");
  const byValue = new Map();
  if (existsSync(secretsFile)) {
    for (const line of readFileSync(secretsFile, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const { kind, value } = JSON.parse(line);
      if (typeof value === "string" && value.length >= MIN_LENGTH) byValue.set(value, kind);
    }
  }
  const logs = readdirSync(runDir).filter((f) => f.endsWith(".log")).sort();
  const hits = [];
  let bytes = 0;
  for (const file of logs) {
    const text = readFileSync(path.join(runDir, file), "utf8");
    bytes += text.length;
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      for (const [value, kind] of byValue) if (line.includes(value)) hits.push({ kind, file, line: i + 1 });
      for (const m of line.matchAll(WHOLE_CREDENTIAL)) if (!byValue.has(m[0])) hits.push({ kind: m[0].startsWith("dwa_") ? "agent key (unrecorded)" : "API token (unrecorded)", file, line: i + 1 });
    });
  }
  return { secrets: byValue.size, logs, bytes, hits };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const runDir = process.argv[2];
  if (!runDir || !existsSync(runDir)) {
    console.error("usage: node scripts/check-secrets-in-logs.mjs <run dir> (a directory with secrets.jsonl and *.log)");
    process.exit(2);
  }
  const { secrets, logs, bytes, hits } = checkSecretsInLogs(runDir);
  if (logs.length === 0 || secrets === 0) {
    console.error(`secrets in logs: nothing to check in ${runDir} (${logs.length} logs, ${secrets} secrets)`);
    process.exit(1);
  }
  for (const h of hits) console.error(`secret in log: ${h.kind} at ${h.file}:${h.line}`);
  console.log(`secrets in logs: ${secrets} secrets checked against ${logs.length} logs (${bytes} bytes): ${hits.length} hits`);
  process.exit(hits.length ? 1 : 0);
}
