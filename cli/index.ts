// driftwatch: parse the command line and hand over to a command.
import { Command, CommanderError } from "commander";
import { registerAckCommand } from "./commands/ack";
import { registerAdminCommands } from "./commands/admin";
import { registerAgentCommand } from "./commands/agent";
import { registerBackupCommands } from "./commands/backup";
import { registerBadgesCommand } from "./commands/badges";
import { registerDemoCommand } from "./commands/demo";
import { registerInsightsCommands } from "./commands/insights";
import { registerRemoteCommands } from "./commands/remote";
import { registerWorkerCommand } from "./commands/worker";
import { registerStartCommand } from "./commands/start";
import { registerTagsCommand } from "./commands/tags";
import { fail, UsageError } from "./output";

// `driftwatch … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});

const program = new Command()
  .name("driftwatch")
  .description("Driftwatch: which version of each service runs where, and how far it has drifted.")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

registerStartCommand(program);
registerTagsCommand(program);
registerAdminCommands(program);
registerAgentCommand(program);
registerBadgesCommand(program);
registerWorkerCommand(program);
registerRemoteCommands(program);
registerAckCommand(program);
registerInsightsCommands(program);
registerBackupCommands(program);
registerDemoCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    if (err.exitCode === 0) process.exit(0);
    process.exit(err.code === "commander.helpDisplayed" || err.code === "commander.version" ? 0 : 2);
  }
  fail(err instanceof UsageError ? err : err);
}
