import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

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
