// updates, promotions, delivery: read-only insights through the REST API. --json
// prints the API body unchanged; otherwise aligned tables.
import type { Command } from "commander";
import type { DeliveryOut } from "@/lib/services/insights/delivery";
import type { PromotionsOut } from "@/lib/services/insights/promotions";
import type { UpdatesOut } from "@/lib/services/insights/updates";
import { formatAge } from "@/lib/domain/words";
import { callApi, remoteOptions, type RemoteFlags } from "../remote";
import { printJson, printTable } from "../output";

export function registerInsightsCommands(program: Command) {
  remoteOptions(
    program
      .command("updates")
      .description("print what to upgrade, most urgent first, with the releases still waiting for min_release_age")
      .option("--environment <name>", "only this environment")
      .option("--team <team>", "only this team's services"),
  ).action(async (flags: RemoteFlags & { environment?: string; team?: string }) => {
    const query = new URLSearchParams();
    if (flags.environment) query.set("environment", flags.environment);
    if (flags.team) query.set("team", flags.team);
    const out = await callApi<UpdatesOut>(flags, "GET", `/api/v1/updates${query.size ? `?${query.toString()}` : ""}`);
    if (flags.json) return printJson(out);
    printTable(
      out.items.map((l) => ({
        service: l.service,
        environment: l.environment,
        move: l.target_version === null ? l.running : `${l.running} → ${l.target_version}`,
        reason: l.reason,
        waiting: l.waiting.map((w) => `${w.version} until ${w.until}`).join(", ") || null,
      })),
    );
  });

  remoteOptions(
    program
      .command("promotions")
      .description("print versions waiting for promotion to the next environment, longest waiting first"),
  ).action(async (flags: RemoteFlags) => {
    const out = await callApi<PromotionsOut>(flags, "GET", "/api/v1/promotions");
    if (flags.json) return printJson(out);
    printTable(
      out.items.map((p) => ({
        service: p.service,
        environments: `${p.from_environment} → ${p.to_environment}`,
        versions: `${p.from_version} → ${p.to_version}`,
        waiting: formatAge(p.waiting_seconds * 1000),
        releases: p.releases.length,
      })),
    );
  });

  remoteOptions(
    program
      .command("delivery")
      .description("print versions arrived per environment and median lead times, from what ran when")
      .option("--window <duration>", "how far back from now, e.g. 7d, 30d, 12w (at most 365d)", "30d"),
  ).action(async (flags: RemoteFlags & { window: string }) => {
    const out = await callApi<DeliveryOut>(flags, "GET", `/api/v1/delivery?window=${encodeURIComponent(flags.window)}`);
    if (flags.json) return printJson(out);
    process.stdout.write(`Window ${out.window}: ${out.from} to ${out.to}\n\n`);
    printTable(out.environments, ["environment", "deploys"]);
    process.stdout.write("\n");
    printTable(
      out.lead_times.map((l) => ({
        from: l.from_environment,
        to: l.to_environment,
        median_lead_time: l.median_seconds === null ? null : formatAge(l.median_seconds * 1000),
        samples: l.samples,
      })),
    );
  });
}
