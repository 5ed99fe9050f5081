// The closing line of npm test: "N passed, N failed" over every runner's results.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0, failed = 0, skipped = 0;
for (const file of readdirSync(dir)) {
  const full = path.join(dir, file);
  if (file.endsWith(".json")) {
    const r = JSON.parse(readFileSync(full, "utf8"));
    if (r.stats) {
      // Playwright's JSON reporter.
      passed += r.stats.expected ?? 0;
      failed += (r.stats.unexpected ?? 0) + (r.stats.flaky ?? 0);
      skipped += r.stats.skipped ?? 0;
      continue;
    }
    passed += r.numPassedTests ?? 0;
    failed += (r.numFailedTests ?? 0) + (r.success === false && !r.numFailedTests ? 1 : 0);
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
}
// Checks that are not test runners (type check, lint, …), one line each, written by scripts/test.sh.
let steps = [];
try {
  steps = readFileSync(path.join(dir, "failed-steps"), "utf8").split("\n").filter(Boolean);
} catch {
  // none failed
}
for (const step of steps) console.log(`failed: ${step}`);
failed += steps.length;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
