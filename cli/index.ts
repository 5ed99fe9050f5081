// driftwatch: parse the command line and hand over to a command.
import { CommanderError } from "commander";
import { COMMANDS, programFor } from "./program";

async function main() {
  // `driftwatch … | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
  let args = process.argv.slice(2);
  // `help <command>` is `<command> --help`, answered by the command's own module.
  if (args[0] === "help" && args[1] && COMMANDS.some((c) => c.name === args[1])) args = [...args.slice(1), "--help"];
  try {
    const program = await programFor(args);
    await program.parseAsync(args, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exit(err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.exitCode === 0 ? 0 : 2);
    }
    const { fail } = await import("./output");
    fail(err);
  }
}

await main();
