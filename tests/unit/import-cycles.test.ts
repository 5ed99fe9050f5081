// No two files import each other, directly or around a longer loop, type
// imports included (a loop of types is still two files that must change
// together). ESLint's import/no-cycle skips type imports, so this test asks dpdm.
import path from "node:path";
import { parseCircular, parseDependencyTree } from "dpdm";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

it("finds no import cycle between the project's files", async () => {
  const tree = await parseDependencyTree(["lib/**/*.ts", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "cli/**/*.ts", "proxy.ts", "tests/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"], {
    cwd: ROOT,
    context: ROOT,
    tsconfig: path.join(ROOT, "tsconfig.json"),
    transform: false,
    // Prisma's generated client is not ours to arrange.
    exclude: /node_modules|lib\/db\/generated/,
  });
  const cycles = parseCircular(tree).map((files) => files.join(" -> "));
  expect(cycles).toEqual([]);
});
