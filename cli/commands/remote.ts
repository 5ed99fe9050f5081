// check, service set: commands that act through the REST API.
import type { Command } from "commander";
import { repositoryLabel } from "@/lib/domain/charts";
import { TRACKS } from "@/lib/domain/tracks";
import { callApi, remoteOptions, type RemoteFlags } from "../remote";
import { bool, oneOf, wholeNumber } from "../options";
import { printJson, UsageError } from "../output";

type ServiceOut = {
  name: string; repository: string | null; last_check: { at: string | null; error: string | null };
  upstream: { waiting?: { version: string; until: string }[] };
};
type MatrixOut = { services: { name: string; upstream: { repository: string | null; newest: string | null } }[] };
type CheckOut = { service: string; repository: string; checked_by: "server" | "agent" };

async function newestOf(flags: RemoteFlags, service: string): Promise<string | null> {
  const matrix = await callApi<MatrixOut>(flags, "GET", `/api/v1/matrix?q=${encodeURIComponent(service)}`);
  return matrix.services.find((s) => s.name === service)?.upstream.newest ?? null;
}

/**
 * Waits for the check's result, polling the API: a success moves last_check.at, a failure sets
 * last_check.error (and leaves .at). A failure repeating the one before changes neither, so at
 * the timeout a standing error is the result.
 */
async function awaitCheck(flags: RemoteFlags, service: string, before: ServiceOut["last_check"], timeoutSeconds: number): Promise<ServiceOut> {
  const path = `/api/v1/services/${encodeURIComponent(service)}`;
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const now = await callApi<ServiceOut>(flags, "GET", path);
    if ((now.last_check.at !== null && now.last_check.at !== before.at) || now.last_check.error !== before.error) return now;
    if (Date.now() > deadline) {
      if (now.last_check.error) return now;
      throw new Error(`no result after ${timeoutSeconds} s: the check of ${service} is still running; a longer --timeout waits for it`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function registerRemoteCommands(program: Command) {
  remoteOptions(
    program
      .command("check")
      .description("check upstream now for a service")
      .requiredOption("--service <name>", "service name")
      .option("--wait", "wait for the check and print its result: the newest release, or why it failed")
      .option("--timeout <seconds>", "with --wait, give up after this long (private registries wait for an agent's report)", wholeNumber("--timeout", { min: 1 }), 120),
  ).action(async (flags: RemoteFlags & { service: string; wait?: boolean; timeout: number }) => {
    const path = `/api/v1/services/${encodeURIComponent(flags.service)}`;
    const before = flags.wait ? await callApi<ServiceOut>(flags, "GET", path) : null;
    const newestBefore = flags.wait ? await newestOf(flags, flags.service) : null;
    const out = await callApi<CheckOut>(flags, "POST", `${path}/check`);
    // A chart's key is internal (`…#chart`, `chart:…`): people read the chart's name.
    const repository = repositoryLabel(out.repository);
    if (!flags.wait) {
      if (flags.json) printJson(out);
      else console.log(out.checked_by === "server" ? `Checking ${repository} now.` : `${repository} is private: the agents check it on their next report.`);
      return;
    }
    if (!flags.json) console.log(out.checked_by === "server" ? `Checking ${repository}…` : `${repository} is private: waiting for an agent's next report…`);
    const after = await awaitCheck(flags, flags.service, before!.last_check, flags.timeout);
    // A private repository's last check carries a note naming the agents; it failed only if the check did not move on.
    const failed = after.last_check.error !== null && (out.checked_by === "server" || after.last_check.at === before!.last_check.at);
    const newest = failed ? newestBefore : await newestOf(flags, flags.service);
    const waiting = after.upstream.waiting ?? [];
    if (flags.json) printJson({ ...out, checked_at: after.last_check.at, error: failed ? after.last_check.error : null, newest, previous_newest: newestBefore, waiting });
    if (failed) throw new Error(`the check of ${repository} failed: ${after.last_check.error}`);
    if (flags.json) return;
    if (newest === null) console.log(`Checked ${repository}: no release matches ${flags.service}'s policy.`);
    else if (newest !== newestBefore) console.log(`Checked ${repository}: new release ${newest}${newestBefore ? ` (newest was ${newestBefore})` : ""}.`);
    else console.log(`Checked ${repository}: no new release; the newest is still ${newest}.`);
    // Held by the policy's min_release_age: not yet alerting, but not "up to date" either.
    for (const w of waiting) console.log(`${w.version} waits until ${w.until} (min_release_age).`);
  });

  const service = program.commands.find((c) => c.name() === "service") ?? program.command("service").description("services");
  remoteOptions(
    service
      .command("set")
      .description("set policy fields of a service")
      .requiredOption("--name <name>", "service name")
      .option("--track <jump>", "patch, minor or major: the smallest jump worth an alert", oneOf("--track", TRACKS))
      .option("--pin-major <n>", "stay on this major (newer majors are shown, not alerted); 'none' removes it", (v) => (v === "none" ? null : wholeNumber("--pin-major")(v)))
      .option("--tag-filter <regex>", "tags must match it to count as versions; 'none' removes it")
      .option("--prerelease <bool>", "consider alpha, beta and rc versions (true/false)", bool("--prerelease"))
      .option("--team <team>", "owning team"),
  ).action(async (flags: RemoteFlags & { name: string; track?: string; pinMajor?: number | null; tagFilter?: string; prerelease?: boolean; team?: string }) => {
    const policy: Record<string, unknown> = {};
    if (flags.track !== undefined) policy.track = flags.track;
    if (flags.pinMajor !== undefined) policy.pin_major = flags.pinMajor;
    if (flags.tagFilter !== undefined) policy.tag_filter = flags.tagFilter === "none" ? null : flags.tagFilter;
    if (flags.prerelease !== undefined) policy.prerelease = flags.prerelease;
    const body: Record<string, unknown> = {};
    if (Object.keys(policy).length) body.policy = policy;
    if (flags.team !== undefined) body.team = flags.team;
    if (Object.keys(body).length === 0) throw new UsageError("nothing to set: give --track, --pin-major, --tag-filter, --prerelease or --team");
    const out = await callApi<{ name: string; policy: Record<string, unknown>; policy_source: string }>(flags, "PATCH", `/api/v1/services/${encodeURIComponent(flags.name)}`, body);
    if (flags.json) printJson(out);
    else console.log(`${out.name}: ${Object.entries(out.policy).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ")}`);
  });
}
