// `prisma generate` without downloading engines: the client is Rust-free
// (WASM query compiler) and the schema engine is not needed to generate.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: path.join(root, "scripts/no-schema-engine.sh"),
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
  PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: "1",
};
const prisma = path.join(root, "node_modules/prisma/build/index.js");
const r = spawnSync(process.execPath, [prisma, "generate", "--no-hints"], { cwd: root, env, stdio: "inherit" });
process.exit(r.status ?? 1);
