// Links node_modules/.bin/driftwatch to bin/driftwatch.mjs, which is where
// `npx driftwatch` in the checkout finds the command. package.json declares no
// `bin` on purpose: for a package whose own `bin` names the command, npx
// installs the checkout into its cache to link it, and that install runs the
// postinstall script again (a new Prisma client written into the sources).
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const binDir = path.join(root, "node_modules", ".bin");
const link = path.join(binDir, "driftwatch");
mkdirSync(binDir, { recursive: true });
rmSync(link, { force: true });
symlinkSync(path.relative(binDir, path.join(root, "bin", "driftwatch.mjs")), link);
