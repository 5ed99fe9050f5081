// The Updates page's grouped view: one row per service and target release,
// the environments as chips ("payments 4.x → 5.0.0: dev, staging, production").
import { compareTags, parseTag } from "@/lib/domain/versions";
import { listVersions } from "@/lib/domain/words";
import { describeLineMove, describeLineTargets, describeReasons, REASON_RANK, type UpdateLine, type UpdatePromote, type UpdateReason, type UpdateTarget } from "./updates";

export type UpdateGroupChip = {
  environment: string;
  production: boolean;
  running: string;
  reason: UpdateReason;
  reasons: UpdateReason[];
  promote: UpdatePromote | null;
  targets: UpdateTarget[];
  open_since: Date;
};

export type UpdateGroup = {
  service: string;
  application: string | null;
  team: string | null;
  target_version: string | null;
  release_notes_url: string | null;
  /** What runs across the chips: one version, `4.x` for one major, else each version (`14.15 and 16.6`). */
  running: string;
  /** The most urgent reason of any chip. */
  reason: UpdateReason;
  /** Every reason of any chip, most urgent first. */
  reasons: UpdateReason[];
  /** The earliest open_since of its chips. */
  open_since: Date;
  /** In pipeline order. */
  environments: UpdateGroupChip[];
};

/**
 * Lines grouped by service and target release. Groups keep the order of their
 * first line (the lines come most urgent first); chips follow `pipeline`
 * (environment names in pipeline order; names not in it go last).
 */
export function groupUpdateLines(lines: readonly UpdateLine[], pipeline: readonly string[]): UpdateGroup[] {
  const order = new Map(pipeline.map((name, i) => [name, i] as const));
  const groups = new Map<string, { first: UpdateLine; lines: UpdateLine[] }>();
  for (const line of lines) {
    const key = `${line.service}\n${line.target_version ?? ""}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { first: line, lines: [line] });
    else group.lines.push(line);
  }
  const out: UpdateGroup[] = [];
  for (const { first, lines: members } of groups.values()) {
    const chips = members
      .map((l): UpdateGroupChip => ({
        environment: l.environment, production: l.production, running: l.running, reason: l.reason, reasons: l.reasons, promote: l.promote, targets: l.targets, open_since: l.open_since,
      }))
      .sort((a, b) => (order.get(a.environment) ?? order.size) - (order.get(b.environment) ?? order.size) || a.environment.localeCompare(b.environment));
    const reasons = [...new Set(members.flatMap((l) => l.reasons))].sort((a, b) => REASON_RANK[a] - REASON_RANK[b]);
    out.push({
      service: first.service,
      application: first.application,
      team: first.team,
      target_version: first.target_version,
      release_notes_url: first.release_notes_url,
      running: summariseRunning(chips.map((c) => c.running)),
      reason: reasons[0] ?? first.reason,
      reasons,
      open_since: new Date(Math.min(...members.map((l) => l.open_since.getTime()))),
      environments: chips,
    });
  }
  return out;
}

/** `4.2.0` when all run it; `4.x` when they share a major; else each version said plainly (`14.15 and 16.6`). */
export function summariseRunning(versions: readonly string[]): string {
  const distinct = [...new Set(versions)];
  if (distinct.length <= 1) return distinct[0] ?? "";
  const parsed = distinct.map(parseTag);
  const major = parsed[0]?.numbers[0];
  const isOneLine = major !== undefined && parsed.every((p) => p.kind === "version" && p.numbers[0] === major && p.prefix === parsed[0]?.prefix && p.flavour === parsed[0]?.flavour);
  if (isOneLine) return `${parsed[0]?.prefix ?? ""}${major}.x${parsed[0]?.flavour ? `-${parsed[0].flavour}` : ""}`;
  const sorted = [...distinct].sort((a, b) => compareTags(a, b) ?? a.localeCompare(b));
  return listVersions(sorted);
}

/**
 * Markdown checkboxes for the grouped view, with the reasons: one environment
 * on the group's own line; several, one sub-item each (its move, promotion
 * first, and the targets that must move).
 */
export function groupedUpdatesChecklist(groups: readonly UpdateGroup[]): string {
  const out: string[] = [];
  const step = (g: UpdateGroup, c: UpdateGroupChip) => [describeLineMove({ running: c.running, target_version: g.target_version, promote: c.promote }), describeLineTargets(c)].filter(Boolean).join(" · ");
  for (const g of groups) {
    const why = describeReasons(g.reasons);
    const only = g.environments.length === 1 ? g.environments[0] : undefined;
    if (only !== undefined) {
      out.push(`- [ ] ${g.service} (${only.environment}): ${[step(g, only), why].filter(Boolean).join(" · ")}`);
      continue;
    }
    out.push(`- [ ] ${g.service} ${g.running} → ${g.target_version ?? "?"}${why ? ` · ${why}` : ""}`);
    for (const c of g.environments) out.push(`  - [ ] ${c.environment}: ${step(g, c)}`);
  }
  return out.join("\n");
}

/** Count of groups per their most urgent reason, and of chips, for a caption ("3 rows, 7 environments"). */
export function countGroups(groups: readonly UpdateGroup[]): { groups: number; environments: number } {
  return { groups: groups.length, environments: groups.reduce((n, g) => n + g.environments.length, 0) };
}
