// driftwatch demo: Driftwatch with a filled workspace to look around in.
import type { Command } from "commander";
import { runDemo } from "../demo/run-demo";
import { UsageError } from "../output";

export function registerDemoCommand(program: Command) {
  program
    .command("demo")
    .description("start Driftwatch with a demo workspace (about 20 services, three environments, every drift kind); works offline")
    .option("--port <n>", "port to listen on (PORT, default 3000)")
    .action(async (opts: { port?: string }) => {
      const raw = opts.port ?? process.env.PORT ?? "3000";
      const port = Number(raw);
      if (!(Number.isInteger(port) && port > 0 && port < 65536)) throw new UsageError(`--port must be a port number, got ${raw}`);
      await runDemo({ port });
    });
}
