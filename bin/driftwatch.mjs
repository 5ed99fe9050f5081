#!/usr/bin/env node
// The driftwatch command: TypeScript entry points run through tsx, so the
// checkout needs no separate compile step.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
await import(path.join(root, "cli/index.ts"));
