// The direct API path finds a handler only in app/api/route-modules.ts; a
// route file missing there would silently fall back to Next.js. The route
// modules import Auth.js, which does not load under Vitest, so this reads them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Operation } from "@/lib/api/operation";
import { ops } from "@/lib/api/operations";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `/api/v1/services/{name}/badge` → `./v1/services/[name]/badge/route`, as app/api/route-modules.ts imports it. */
const moduleOf = (template: string) => "./" + template.replace(/^\/api\//, "").replace(/\{(\w+)\}/g, "[$1]") + "/route";

describe("the direct API path's route modules", () => {
  const index = readFileSync(path.join(ROOT, "app/api/route-modules.ts"), "utf8");

  it("list every /api/v1 operation's route file, which binds the operation under its method", () => {
    for (const [key, op] of Object.entries(ops) as [string, Operation][]) {
      if (!op.path.startsWith("/api/v1/")) continue;
      const specifier = moduleOf(op.path);
      expect(index, `${op.id}: ${specifier}`).toContain(`from "${specifier}";`);
      const source = readFileSync(path.join(ROOT, "app/api", specifier + ".ts"), "utf8");
      expect(source, `${op.id} in ${specifier}`).toMatch(new RegExp(`export const ${op.method} = handle\\(ops\\.${key}\\b`));
    }
  });
});
