// The weekly upgrade plan: from Monday 08:00
// UTC on, each workspace with an enabled rule that names `upgrade_plan` gets
// one `upgrade_plan` event for the ISO week (dedupeKey `upgrade_plan:<week>`),
// carrying the updates list without its acknowledged lines. A server that was
// down on Monday catches up later that week; a missed week is not sent late.
import { createEvent } from "@/lib/db/queries/notifications/create-event";
import { listWorkspacesDuePlan } from "@/lib/db/queries/notifications/list-workspaces-due-plan";
import { findWorkspaceName } from "@/lib/db/queries/workspaces/find-workspace-name";
import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/db/client";
import { buildUpgradePlanPayload, type UpgradePlanLine } from "@/lib/domain/notifications";
import type { RequestCtx, TickCtx } from "../context";
import { listUpdates } from "../insights/updates";

const DAY_MS = 86_400_000;
const SEND_HOUR_UTC = 8;

/** ISO 8601 week of a moment, in UTC: `2026-W09`. */
export function isoWeekOf(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = (day.getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(day.getTime() + (3 - weekday) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7);
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** Monday 08:00 UTC of the ISO week `at` falls in. */
export function planTimeOfWeek(at: Date): Date {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - weekday * DAY_MS + SEND_HOUR_UTC * 3_600_000);
}

export async function weeklyPlanTick({ ctx: deps }: { ctx: TickCtx }): Promise<{ week: string; emitted: number }> {
  const week = isoWeekOf(deps.now);
  if (deps.now < planTimeOfWeek(deps.now)) return { week, emitted: 0 };
  const dedupeKey = `upgrade_plan:${week}`;
  const due = await listWorkspacesDuePlan(deps.db, dedupeKey);
  let emitted = 0;
  for (const workspaceId of due) {
    emitted += await emitPlan(deps, workspaceId, dedupeKey);
  }
  return { week, emitted };
}

async function emitPlan(deps: TickCtx, workspaceId: string, dedupeKey: string): Promise<number> {
  const name = await findWorkspaceName(deps.db, workspaceId);
  if (name === null) return 0;
  const lines = await loadPlanLines(deps, workspaceId);
  const id = randomUUID();
  const payload = buildUpgradePlanPayload({ planId: id, occurredAt: deps.now, workspace: name, baseUrl: deps.config.baseUrl, lines });
  const written = await createEvent(deps.db, { id, workspaceId, type: "upgrade_plan", dedupeKey, payload: payload as unknown as Prisma.InputJsonValue, createdAt: deps.now });
  return written ? 1 : 0;
}

/** The updates list's open lines (put-off ones left out), most urgent first, read as the workspace itself. */
async function loadPlanLines(deps: TickCtx, workspaceId: string): Promise<UpgradePlanLine[]> {
  const ctx: RequestCtx = { db: deps.db, config: deps.config, now: deps.now, actor: { kind: "system", workspaceId } };
  const { items } = await listUpdates({ ctx });
  return items.map((line) => ({
    service: line.service,
    environment: line.environment,
    team: line.team,
    production: line.production,
    running: line.running,
    target_version: line.target_version,
    reason: line.reason,
    release_notes_url: line.release_notes_url,
  }));
}
