// badges reset: a new badge signing key for a workspace (local).
import type { Command } from "commander";
import { resetBadgeKey } from "@/lib/services/badges/reset-key";
import { ownerCtx, withLocalDb } from "../local";
import { printJson } from "../output";

export function registerBadgesCommand(program: Command) {
  const badges = program.command("badges").description("badge addresses");
  badges
    .command("reset")
    .description("local: new badge signing key; every badge address handed out stops loading at once")
    .requiredOption("--workspace <name>", "workspace name")
    .option("--json", "print JSON (key_id, reset_at)")
    .action(async (opts: { workspace: string; json?: boolean }) => {
      const result = await withLocalDb(async (db, config) => resetBadgeKey({ ctx: await ownerCtx(db, config, opts.workspace) }));
      if (opts.json) printJson(result);
      else console.log(`New badge key for ${opts.workspace}. Every earlier badge address now answers 404; service pages offer new ones.`);
    });
}
