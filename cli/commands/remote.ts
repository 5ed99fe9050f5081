// check, service set: commands that act through the REST API.
import type { Command } from "commander";
import { callApi, remoteOptions, type RemoteFlags } from "../remote";
import { printJson, UsageError } from "../output";

export function registerRemoteCommands(program: Command) {
  remoteOptions(
    program
      .command("check")
      .description("check upstream now for a service")
      .requiredOption("--service <name>", "service name"),
  ).action(async (flags: RemoteFlags & { service: string }) => {
    const out = await callApi<{ service: string; repository: string; checked_by: string }>(flags, "POST", `/api/v1/services/${encodeURIComponent(flags.service)}/check`);
    if (flags.json) printJson(out);
    else console.log(out.checked_by === "server" ? `Checking ${out.repository} now.` : `${out.repository} is private: the agents check it on their next report.`);
  });

  const service = program.commands.find((c) => c.name() === "service") ?? program.command("service").description("services");
  remoteOptions(
    service
      .command("set")
      .description("set policy fields of a service")
      .requiredOption("--name <name>", "service name")
      .option("--track <jump>", "patch, minor or major: the smallest jump worth an alert")
      .option("--pin-major <n>", "stay on this major (newer majors are shown, not alerted); 'none' removes it")
      .option("--tag-filter <regex>", "tags must match it to count as versions; 'none' removes it")
      .option("--prerelease <bool>", "consider alpha, beta and rc versions (true/false)")
      .option("--team <team>", "owning team"),
  ).action(async (flags: RemoteFlags & { name: string; track?: string; pinMajor?: string; tagFilter?: string; prerelease?: string; team?: string }) => {
    const policy: Record<string, unknown> = {};
    if (flags.track !== undefined) policy.track = flags.track;
    if (flags.pinMajor !== undefined) {
      const n = Number(flags.pinMajor);
      if (flags.pinMajor !== "none" && !Number.isInteger(n)) throw new UsageError(`--pin-major: expected a whole number or none, got ${flags.pinMajor}`);
      policy.pin_major = flags.pinMajor === "none" ? null : n;
    }
    if (flags.tagFilter !== undefined) policy.tag_filter = flags.tagFilter === "none" ? null : flags.tagFilter;
    if (flags.prerelease !== undefined) {
      if (!["true", "false"].includes(flags.prerelease)) throw new UsageError(`--prerelease: expected true or false, got ${flags.prerelease}`);
      policy.prerelease = flags.prerelease === "true";
    }
    const body: Record<string, unknown> = {};
    if (Object.keys(policy).length) body.policy = policy;
    if (flags.team !== undefined) body.team = flags.team;
    if (Object.keys(body).length === 0) throw new UsageError("nothing to set: give --track, --pin-major, --tag-filter, --prerelease or --team");
    const out = await callApi<{ name: string; policy: Record<string, unknown>; policy_source: string }>(flags, "PATCH", `/api/v1/services/${encodeURIComponent(flags.name)}`, body);
    if (flags.json) printJson(out);
    else console.log(`${out.name}: ${Object.entries(out.policy).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ")}`);
  });
}
