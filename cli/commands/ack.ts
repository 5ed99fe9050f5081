// driftwatch ack: create an acknowledgement through the REST API.
import type { Command } from "commander";
import { callApi, remoteOptions, type RemoteFlags } from "../remote";
import { parseDuration } from "@/lib/domain/duration";
import { oneOf } from "../options";
import { printJson, UsageError } from "../output";

type AckFlags = RemoteFlags & { service: string; kind: string; untilVersion?: string; env?: string; for?: string };
type AckOut = { id: string; service: string; kind: string; until_version: string | null; environment: string | null; expires_at: string | null };

function duration(flag: string) {
  return (value: string) => {
    if (parseDuration(value) === null) throw new UsageError(`${flag} must be a duration such as 72h or 7d (got ${value})`);
    return value;
  };
}

export function registerAckCommand(program: Command) {
  remoteOptions(
    program
      .command("ack")
      .description("acknowledge: silence a service's notifications until a version ships or a time passes")
      .requiredOption("--service <name>", "service name")
      .requiredOption("--kind <kind>", "release (upstream and eol drift) or drift (every kind)", oneOf("--kind", ["release", "drift"] as const))
      .option("--until-version <version>", "release: until a version at or above this one runs")
      .option("--env <environment>", "only in this environment")
      .option("--for <duration>", "for this long, such as 72h or 7d (required with --kind drift)", duration("--for")),
  ).action(async (flags: AckFlags) => {
    const body: Record<string, string> = { service: flags.service, kind: flags.kind };
    if (flags.untilVersion !== undefined) body.until_version = flags.untilVersion;
    if (flags.env !== undefined) body.environment = flags.env;
    if (flags.for !== undefined) body.duration = flags.for;
    const out = await callApi<AckOut>(flags, "POST", "/api/v1/acks", body);
    if (flags.json) {
      printJson(out);
      return;
    }
    const scope = out.environment ? `${out.service} in ${out.environment}` : out.service;
    const until = [out.until_version ? `until ${out.until_version} runs` : null, out.expires_at ? `until ${out.expires_at}` : null].filter(Boolean).join(" or ");
    console.log(`Acknowledged ${out.kind} for ${scope}${until ? `, ${until}` : ""} (${out.id}).`);
  });
}
