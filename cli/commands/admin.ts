// setup, token create, agent create, migrate: the local administrative commands.
import type { Command } from "commander";
import { loadConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db/database";
import { migrateDatabase } from "@/lib/db/migrate";
import { createAgentKey } from "@/lib/services/agent-keys/create";
import { createApiToken } from "@/lib/services/api-tokens/create";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { ownerCtx, withLocalDb } from "../local";
import { oneOf } from "../options";
import { printJson } from "../output";

export function registerAdminCommands(program: Command) {
  program
    .command("migrate")
    .description("local: apply pending database migrations")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const config = loadConfig(process.env);
      const handle = await openDatabase(config, { leaveAdoptedRunning: true });
      try {
        const result = await migrateDatabase(handle.url, { log: opts.json ? undefined : (l) => console.log(l) });
        if (opts.json) printJson(result);
        else if (result.applied.length === 0) console.log(`The database is up to date (${result.alreadyApplied} migrations).`);
      } finally {
        await handle.stop();
      }
    });

  program
    .command("setup")
    .description("local: create the first workspace and its owner (idempotent for the same values)")
    .requiredOption("--workspace <name>", "workspace name")
    .requiredOption("--email <email>", "owner's e-mail")
    .requiredOption("--password <password>", "owner's password (at least 8 characters)")
    .option("--json", "print JSON")
    .action(async (opts: { workspace: string; email: string; password: string; json?: boolean }) => {
      const result = await withLocalDb((db) => setupWorkspace({ ctx: { db }, input: opts }));
      if (opts.json) printJson({ workspace: opts.workspace, email: opts.email.toLowerCase(), created_workspace: result.created.workspace, created_user: result.created.user });
      else console.log(result.created.workspace ? `Created workspace ${opts.workspace} owned by ${opts.email}.` : `Workspace ${opts.workspace} is already set up for ${opts.email}.`);
    });

  const token = program.command("token").description("API tokens");
  token
    .command("create")
    .description("local: print a new API token, alone on stdout")
    .requiredOption("--workspace <name>", "workspace name")
    .requiredOption("--role <role>", "viewer or member", oneOf("--role", ["viewer", "member"] as const))
    .option("--name <name>", "a label for the token", "cli")
    .option("--json", "print JSON (id, name, role, prefix, value)")
    .action(async (opts: { workspace: string; role: string; name: string; json?: boolean }) => {
      const created = await withLocalDb(async (db, config) =>
        createApiToken({ ctx: await ownerCtx(db, config, opts.workspace), input: { name: opts.name, role: opts.role } }),
      );
      if (opts.json) printJson(created);
      else process.stdout.write(created.value + "\n");
    });

  const agent = program.commands.find((c) => c.name() === "agent") ?? program.command("agent");
  agent
    .command("create")
    .description("local: print a new agent key, alone on stdout")
    .requiredOption("--workspace <name>", "workspace name")
    .requiredOption("--name <name>", "agent name")
    .option("--json", "print JSON (id, name, prefix, value)")
    .action(async (opts: { workspace: string; name: string; json?: boolean }) => {
      const created = await withLocalDb(async (db, config) =>
        createAgentKey({ ctx: await ownerCtx(db, config, opts.workspace), input: { name: opts.name } }),
      );
      if (opts.json) printJson(created);
      else process.stdout.write(created.value + "\n");
    });
}
