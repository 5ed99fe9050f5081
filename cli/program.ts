// The driftwatch program. Only the module of the command asked for is
// loaded: `start` brings Next.js and Prisma, `tags newest` needs neither, and
// `--help` needs no command module at all (it lists the summaries below).
import { Command } from "commander";

type Register = (program: Command) => void;

/** Top-level commands: the summary `driftwatch --help` shows, and the modules that define them. */
export const COMMANDS: { name: string; summary: string; load: () => Promise<Register[]> }[] = [
  { name: "start", summary: "migrate the database, then serve the web app, the API and the scheduler", load: async () => [(await import("./commands/start")).registerStartCommand] },
  { name: "tags", summary: "offline helpers for tags", load: async () => [(await import("./commands/tags")).registerTagsCommand] },
  { name: "migrate", summary: "local: apply pending database migrations", load: admin },
  { name: "setup", summary: "local: create the first workspace and its owner (idempotent for the same values)", load: admin },
  { name: "token", summary: "API tokens", load: admin },
  {
    name: "agent",
    summary: "run an agent: observe orchestrators, look up private registries, report (`agent create` makes a key)",
    load: async () => [...(await admin()), (await import("./commands/agent")).registerAgentCommand],
  },
  { name: "badges", summary: "badge addresses", load: async () => [(await import("./commands/badges")).registerBadgesCommand] },
  { name: "worker", summary: "run the companion scheduler (checks, drift evaluation, notifications) without the web server", load: async () => [(await import("./commands/worker")).registerWorkerCommand] },
  { name: "check", summary: "check upstream now for a service", load: remote },
  { name: "service", summary: "services", load: remote },
  { name: "ack", summary: "acknowledge: silence a service's notifications until a version ships or a time passes", load: async () => [(await import("./commands/ack")).registerAckCommand] },
  { name: "updates", summary: "print what to upgrade, most urgent first, with the releases still waiting for min_release_age", load: insights },
  { name: "gate", summary: "ask the promotion gate whether a version may run in an environment: exit 0 allowed, 1 refused, 2 usage", load: async () => [(await import("./commands/gate")).registerGateCommand] },
  { name: "promotions", summary: "print versions waiting for promotion to the next environment, longest waiting first", load: insights },
  { name: "delivery", summary: "print versions arrived per environment and median lead times, from what ran when", load: insights },
  { name: "backup", summary: "local: write a consistent backup of the whole database to <file> (works while the server runs)", load: backup },
  { name: "restore", summary: "local: restore a backup into an empty database, or replace everything with --force; the server must be stopped", load: backup },
  { name: "demo", summary: "start Driftwatch with a demo workspace (about 20 services, three environments, every drift kind); works offline", load: async () => [(await import("./commands/demo")).registerDemoCommand] },
];

async function admin(): Promise<Register[]> {
  return [(await import("./commands/admin")).registerAdminCommands];
}
async function remote(): Promise<Register[]> {
  return [(await import("./commands/remote")).registerRemoteCommands];
}
async function insights(): Promise<Register[]> {
  return [(await import("./commands/insights")).registerInsightsCommands];
}
async function backup(): Promise<Register[]> {
  return [(await import("./commands/backup")).registerBackupCommands];
}

export function newProgram(): Command {
  return new Command()
    .name("driftwatch")
    .description("Driftwatch: which version of each service runs where, and how far it has drifted.")
    // commander's own usage errors (a missing option, an unknown command) in the one-line form of the others.
    .configureOutput({ outputError: (text, write) => write(`driftwatch: ${text.replace(/^error: /, "").trimEnd()} (run with --help for usage)\n`) })
    .exitOverride();
}

/** The program for these arguments: the named command's module, or every command's summary. */
export async function programFor(args: string[]): Promise<Command> {
  const program = newProgram();
  const named = COMMANDS.find((c) => c.name === args[0]);
  if (named) {
    for (const register of await named.load()) register(program);
    return program;
  }
  for (const c of COMMANDS) program.command(c.name).description(c.summary);
  return program;
}
