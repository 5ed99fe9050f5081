import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

// The layers: what each folder may import of ours (npm packages are free).
// A folder imports its own files; a folder not listed here is not ours to police.
const LAYERS = {
  "lib/domain": [],
  "lib/log": [],
  "lib/config": [],
  "lib/net": ["lib/domain", "lib/log"],
  "lib/auth": ["lib/domain"],
  "lib/render": ["lib/domain"],
  "lib/catalog": ["lib/domain"],
  "lib/adapters": ["lib/domain", "lib/net", "lib/log"],
  "lib/agent": ["lib/domain", "lib/adapters", "lib/net", "lib/log", "lib/config"],
  "lib/db": ["lib/domain", "lib/config", "lib/log"],
  "lib/services": ["lib/domain", "lib/adapters", "lib/db", "lib/net", "lib/log", "lib/config", "lib/auth", "lib/render", "lib/catalog"],
  "lib/api": ["lib/domain", "lib/adapters", "lib/services", "lib/db", "lib/net", "lib/log", "lib/config", "lib/auth", "lib/render", "lib/catalog"],
  "lib/server": ["lib/domain", "lib/adapters", "lib/services", "lib/db", "lib/net", "lib/log", "lib/config", "lib/auth", "lib/render", "lib/catalog"],
  "lib/http": ["lib/domain", "lib/adapters", "lib/services", "lib/db", "lib/net", "lib/log", "lib/config", "lib/auth", "lib/render", "lib/catalog", "lib/api", "lib/server"],
  "lib/mcp": ["lib/domain", "lib/adapters", "lib/services", "lib/db", "lib/net", "lib/log", "lib/config", "lib/auth", "lib/render", "lib/catalog", "lib/api", "lib/server", "lib/http"],
};
// The top: pages, route files and components may import any lib folder (and each other), never the CLI.
const TOP = { app: ["cli"], components: ["cli"], "proxy.ts": ["cli"] };
const FOLDERS = [...Object.keys(LAYERS), "app", "components", "cli", "proxy"];

const forbid = (folder) => ({ group: [`@/${folder}`, `@/${folder}/**`], message: `${folder} is not below this folder in the layer table (eslint.config.mjs).` });

function layerRules() {
  const rules = Object.entries(LAYERS).map(([folder, allowed]) => ({
    files: folder.includes(".") || ["lib/log", "lib/config"].includes(folder) ? [`${folder}.ts`] : [`${folder}/**/*.ts`, `${folder}/**/*.tsx`],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [
          ...FOLDERS.filter((f) => f !== folder && !allowed.includes(f)).map(forbid),
          { group: ["../../**"], message: "Import another folder's files with @/…, where the layer table can see it." },
        ],
      }],
    },
  }));
  for (const [top, denied] of Object.entries(TOP)) {
    rules.push({ files: top.endsWith(".ts") ? [top] : [`${top}/**/*.ts`, `${top}/**/*.tsx`], rules: { "no-restricted-imports": ["error", { patterns: denied.map(forbid) }] } });
  }
  return rules;
}

const config = [
  { ignores: [".next/**", ".next-*/**", "node_modules/**", "lib/db/generated/**", ".driftwatch/**", ".driftwatch-cli/**", "bench/results/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "e2e/artifacts/**"] },
  ...nextVitals,
  ...nextTs,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false, attributes: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  // Import cycles between files: tests/unit/import-cycles.test.ts (import/no-cycle skips type imports).
  ...layerRules(),
  {
    // Domain code stays pure and strictly typed.
    files: ["lib/domain/**/*.ts"],
    ignores: ["lib/domain/**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "error" },
  },
  {
    files: ["tests/**/*.ts", "**/*.test.ts", "e2e/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
];

export default config;
