// Gate decisions for one environment, shared by the API and the admission
// webhook: read the service's history and upstream facts, work out each
// image's exact version as history does, ask the pure rule, and record every
// decision (audit log and counters) in one statement.
import type { GateEnvironmentRow } from "@/lib/db/queries/gate/list-gate-environments";
import { listGateEnvironments } from "@/lib/db/queries/gate/list-gate-environments";
import { getGateUpstream } from "@/lib/db/queries/gate/get-gate-upstream";
import { listGateRuns, type GateRunRow } from "@/lib/db/queries/gate/list-gate-runs";
import { recordGateDecisions, type GateDecisionEntry } from "@/lib/db/queries/gate/record-gate-decisions";
import { listGateServices } from "@/lib/db/queries/gate/list-gate-services";
import type { OutboxEventRow } from "@/lib/db/queries/notifications/create-events-once";
import { findWorkspaceName } from "@/lib/db/queries/workspaces/find-workspace-name";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import { decideGate, gateSettingsOf, stepBefore, versionOfImage, type GateDecision, type GateRun, type GateSettings } from "@/lib/domain/gate";
import { parseImageRef } from "@/lib/domain/image-ref";
import { buildGateRefusedPayload } from "@/lib/domain/notifications";
import { exactVersionOf } from "@/lib/domain/running-version";
import type { RequestCtx } from "../context";
import { loadEolForRuns } from "../eol/status";

/** `container`: a sidecar's or init container's name, judged on that container's history; absent: the main container's. */
export type GateAsk = { service: string; version?: string; image?: string; container?: string };
export type GateAnswer = GateDecision & { service: string; environment: string };
/** An answer with the service's team, which notification rules filter on. */
export type JudgedAnswer = GateAnswer & { team: string | null };

export type GateEnvironment = { row: GateEnvironmentRow; settings: GateSettings; previous: GateEnvironmentRow[] };

/** The environment by name with its settings and the environments right before it; null when unknown. */
export function gateEnvironmentOf(envs: readonly GateEnvironmentRow[], name: string): GateEnvironment | null {
  const step = stepBefore(envs, name);
  return step && { row: step.env, settings: gateSettingsOf(step.env.gate), previous: step.previous };
}

export async function readGateEnvironment(ctx: Pick<RequestCtx, "db">, workspaceId: string, name: string, pointer: string): Promise<GateEnvironment> {
  const env = gateEnvironmentOf(await listGateEnvironments(ctx.db, workspaceId), name);
  if (!env) throw new AppError("invalid_input", `Environment ${name} was not found.`, { errors: [{ pointer, detail: `no environment named ${name}` }] });
  return env;
}

/** Decisions for each ask, without recording them (the service page's preview reads these too). */
export async function judgeGate(ctx: RequestCtx, workspaceId: string, env: GateEnvironment, asks: readonly GateAsk[], opts: { settings?: GateSettings } = {}): Promise<JudgedAnswer[]> {
  const settings = opts.settings ?? env.settings;
  // The images' upstream facts are read beside the services: their keys are known from the asks alone.
  const refs = asks.map((a) => (a.image === undefined ? null : parseImageRef(a.image)));
  const imageUps = new Map<string, Promise<{ tags: string[] | null; resolved: string | null }>>();
  const upstreamOf = (key: string, digest: string | null) => {
    const id = `${key}\u0000${digest ?? ""}`;
    let up = imageUps.get(id);
    if (up === undefined) imageUps.set(id, (up = getGateUpstream(ctx.db, workspaceId, key, digest)));
    return up;
  };
  const imageFacts = refs.map((ref) => (ref ? upstreamOf(ref.key, ref.digest) : null));
  // Awaited below; not an unhandled rejection meanwhile.
  for (const p of imageFacts) p?.catch(() => undefined);

  const facts = await listGateServices(ctx.db, workspaceId, [...new Set(asks.map((a) => a.service))]);
  const factsBy = new Map(facts.map((f) => [f.name, f]));
  const [runsBy, eolOf] = await Promise.all([
    listGateRuns(ctx.db, workspaceId, facts.map((f) => f.id)),
    settings.refuseEol ? loadEolForRuns(ctx, facts) : () => null,
  ]);
  const previousIds = new Set(env.previous.map((e) => e.id));
  const previousName = env.previous.length > 0 ? env.previous.map((e) => e.name).join(" or ") : null;

  return Promise.all(asks.map(async (ask, i): Promise<JudgedAnswer> => {
    const f = factsBy.get(ask.service);
    const all: GateRunRow[] = f ? (runsBy.get(f.id) ?? []) : [];
    const rows = ask.container === undefined ? all.filter((r) => r.isMain) : all.filter((r) => r.container === ask.container);
    const ref = refs[i] ?? null;
    const serviceKey = f ? (f.repository ?? f.runningRepository) : null;
    const imageKey = ref?.key ?? null;
    const [serviceUp, imageUp] = await Promise.all([
      serviceKey !== null && serviceKey !== imageKey ? upstreamOf(serviceKey, null) : null,
      imageFacts[i] ?? null,
    ]);
    const tagsOf = (key: string) => (key === imageKey ? (imageUp?.tags ?? null) : key === serviceKey ? (serviceUp?.tags ?? null) : null);
    const exact = rows.map((r) => ({ ...r, exact: exactVersionOf({ tag: r.tag, tagVersion: r.version, resolvedVersion: r.resolved }, tagsOf(r.repository)) }));
    const version = ask.version ?? (ref
      ? versionOfImage({
          tag: ref.tag, digest: ref.digest, resolvedVersion: imageUp?.resolved ?? null, upstreamTags: imageUp?.tags ?? null,
          runs: exact.filter((r) => r.repository === ref.key).flatMap((r) => [{ digest: r.digest, version: r.exact }, { digest: r.platformDigest, version: r.exact }]),
        })
      : null);
    const runs: GateRun[] = exact.flatMap((r) => {
      const environment = r.environmentId === env.row.id ? env.row.name : previousIds.has(r.environmentId) ? previousName : null;
      return environment === null ? [] : [{ environment, version: r.exact, from: new Date(r.from), to: r.to === null ? null : new Date(r.to) }];
    });
    const eol = f && version !== null ? eolOf(f.id, version) : null;
    const decision = decideGate({
      // A container Driftwatch has never seen run for this service is as unknown as a service.
      settings, environment: env.row.name, previous: previousName, isKnownService: f !== undefined && (ask.container === undefined || rows.length > 0), version,
      asked: ask.image ?? ask.version ?? "", runs, now: ctx.now,
      eol: eol ? { product: eol.product, cycle: eol.cycle, eolDate: eol.eol_date, passed: eol.state === "passed" } : null,
    });
    if (f !== undefined && ask.container !== undefined && rows.length === 0) {
      const detail = `Driftwatch has never seen container ${ask.container} of ${ask.service} run anywhere.`;
      decision.reasons = decision.reasons.map((r) => (r.code === "unknown_service" ? { ...r, detail } : r));
    }
    return { ...decision, service: ask.service, environment: env.row.name, team: f?.team ?? null };
  }));
}

/** How a decision is counted: refused, allowed with reasons in audit mode (warned), or allowed. */
export function decisionOf(a: GateDecision): GateDecisionEntry["decision"] {
  if (!a.allowed) return "refused";
  return a.reasons.length > 0 ? "warned" : "allowed";
}

/** A decision to record: `asked` is the version or image given; `image` only when an image was. */
export type RecordedAnswer = JudgedAnswer & { asked: string; image?: string };

/**
 * Refusals as `gate_refused` outbox events. Only refusals (enforce mode): an
 * audit-mode "warned" decision stopped nothing, and audit mode is how a team
 * tries the gate on every deploy before enforcing it, so notifying those would
 * be noise; they stay in the audit log and the counters.
 */
async function refusalEvents(ctx: RequestCtx, workspaceId: string, answers: readonly RecordedAnswer[]): Promise<Omit<OutboxEventRow, "routedAt">[]> {
  const refused = answers.filter((a) => !a.allowed);
  if (refused.length === 0) return [];
  const workspace = (await findWorkspaceName(ctx.db, workspaceId)) ?? "";
  return refused.map((a) => {
    const id = randomUUID();
    const payload = buildGateRefusedPayload({
      eventId: id, decidedAt: ctx.now, workspace, baseUrl: ctx.config.baseUrl, service: a.service, team: a.team,
      environment: a.environment, version: a.version, image: a.image, mode: a.mode, reasons: a.reasons,
    });
    // Each refusal is logged, but a deploy retried in a loop (or a controller re-creating its
    // Pods) notifies once an hour per service, environment and version, not once per attempt.
    const hour = ctx.now.toISOString().slice(0, 13);
    return { id, type: "gate_refused", dedupeKey: `gate_refused:${a.environment}:${a.service}:${a.version ?? a.image ?? a.asked}:${hour}`, payload };
  });
}

export async function recordGateAnswers(ctx: RequestCtx, workspaceId: string, env: GateEnvironment, actor: string, via: "api" | "admission", answers: readonly RecordedAnswer[], extra: Record<string, unknown> = {}): Promise<void> {
  await recordGateDecisions(ctx.db, {
    workspaceId, environmentId: env.row.id, actor, now: ctx.now,
    events: await refusalEvents(ctx, workspaceId, answers),
    entries: answers.map((a) => ({
      subject: a.service,
      decision: decisionOf(a),
      data: { via, environment: a.environment, asked: a.asked, version: a.version, mode: a.mode, allowed: a.allowed, reasons: a.reasons, ...extra },
    })),
  });
}
