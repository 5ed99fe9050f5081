// driftwatch gate: ask the promotion gate before a deploy. Exit 0 when the
// version may run there (or the gate only audits), 1 when it is refused,
// 2 on a usage error; one line per reason, or the API body with --json.
import type { Command } from "commander";
import { AppError } from "@/lib/domain/errors";
import type { GateAnswer } from "@/lib/services/gate/judge";
import { callApi, remoteOptions, type RemoteFlags } from "../remote";
import { printJson, UsageError } from "../output";

type GateFlags = RemoteFlags & { service: string; environment: string; version?: string; image?: string };

export function registerGateCommand(program: Command) {
  remoteOptions(
    program
      .command("gate")
      .description("ask the promotion gate whether a version may run in an environment: exit 0 allowed, 1 refused, 2 usage")
      .requiredOption("--service <name>", "the service")
      .requiredOption("--environment <name>", "the environment it is about to be deployed to")
      .option("--version <version>", "the version to deploy")
      .option("--image <ref>", "the image to deploy (its version is worked out as the agent's are)"),
  ).action(async (flags: GateFlags) => {
    if ((flags.version === undefined) === (flags.image === undefined)) throw new UsageError("give exactly one of --version and --image");
    const body = { service: flags.service, environment: flags.environment, ...(flags.version !== undefined ? { version: flags.version } : { image: flags.image }) };
    let out: GateAnswer;
    try {
      out = await callApi<GateAnswer>(flags, "POST", "/api/v1/gate", body);
    } catch (err) {
      // The API refused the question itself (unknown environment, not a version): a usage error, not a refusal.
      if (err instanceof AppError && /^4\d\d /.test(err.message)) throw new UsageError(err.message);
      throw err;
    }
    if (flags.json) printJson(out);
    else {
      const what = `${out.service} ${out.version ?? flags.image ?? flags.version}`;
      // An environment whose gate is off allows everything: say so, rather than look like a check that passed.
      const verdict = !out.allowed ? "refused" : out.mode === "off" ? `allowed (the gate is off in ${out.environment})` : out.reasons.length > 0 ? `allowed (${out.mode} mode)` : "allowed";
      process.stdout.write(`${what} in ${out.environment}: ${verdict}\n`);
      for (const r of out.reasons) process.stdout.write(`${r.code}: ${r.detail}\n`);
    }
    if (!out.allowed) process.exitCode = 1;
  });
}
