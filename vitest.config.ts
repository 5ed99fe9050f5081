import { defineConfig } from "vitest/config";
import path from "node:path";

const alias = { "@": path.resolve(import.meta.dirname) };

// Three projects: `unit` (pure code and adapters against loopback fixtures, no
// database), `integration` (real PostgreSQL and a real running server,
// started once by tests/setup/global.ts) and `engine` (the same, plus a real
// Docker Engine in Swarm mode: needs root, or docker.io installed).
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "cli/**/*.test.ts", "tests/unit/**/*.test.ts"],
          environment: "node",
          // Some unit tests start real child processes (the CLI, git, a registry) on a 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "engine",
          include: ["tests/engine/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global.ts", "tests/setup/docker-engine.ts"],
          // One engine, shared: files one after another (image builds are heavy on 2 cores).
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
