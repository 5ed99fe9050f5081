// Gate decisions for one environment, shared by the API and the admission
// webhook: read the service's history and upstream facts, work out each
// image's exact version as history does, ask the pure rule, and record every
// decision (audit log and counters) in one statement.
import type { GateFacts, GateEnvironmentRow, GateFactsInput, GateRunRow } from "@/lib/db/queries/gate/read-gate-facts";
import type { GateDecisionEntry } from "@/lib/db/queries/gate/record-gate-decisions";
import type { OutboxEventRow } from "@/lib/db/queries/notifications/create-events-once";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import { decideGate, gateSettingsOf, stepBefore, versionOfImage, type GateDecision, type GateRun, type GateSettings } from "@/lib/domain/gate";
import { parseImageRef } from "@/lib/domain/image-ref";
import { buildGateRefusedPayload } from "@/lib/domain/notifications";
import { exactVersionOf } from "@/lib/domain/running-version";
import type { RequestCtx } from "../context";
import { loadEolForRuns } from "../eol/status";
import { writeGateDecision } from "./decision-writer";
import { readSharedGateFacts } from "./fact-reads";

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

/**
 * The facts the asks need, read in one statement (readGateFacts), perhaps with other reviews' (fact-reads.ts).
 * `environment`: the one asked about, when only it and the step before it are judged.
 */
export function readFactsFor(ctx: Pick<RequestCtx, "db">, workspace: GateFactsInput["workspace"], asks: readonly GateAsk[], environment?: string): Promise<GateFacts> {
  const images = asks.flatMap((a) => {
    const ref = a.image === undefined ? null : parseImageRef(a.image);
    return ref ? [{ key: ref.key, digest: ref.digest }] : [];
  });
  const containers = asks.flatMap((a) => (a.container === undefined ? [] : [a.container]));
  return readSharedGateFacts(ctx.db, { workspace, services: [...new Set(asks.map((a) => a.service))], images, containers, ...(environment === undefined ? {} : { environment }) });
}

/** The named environment of the facts read, or a 4xx naming the field (`pointer`). */
export function requireGateEnvironment(facts: GateFacts, name: string, pointer: string): GateEnvironment {
  const env = gateEnvironmentOf(facts.environments, name);
  if (!env) throw new AppError("invalid_input", `Environment ${name} was not found.`, { errors: [{ pointer, detail: `no environment named ${name}` }] });
  return env;
}

/** What judging and recording read of a request's context: the webhook's has no actor until its address is checked. */
export type GateCtx = Pick<RequestCtx, "db" | "now" | "config">;

/** Decisions for each ask, without recording them (the service page's preview reads these too). */
export async function judgeGate(ctx: GateCtx, facts: GateFacts, env: GateEnvironment, asks: readonly GateAsk[], opts: { settings?: GateSettings } = {}): Promise<JudgedAnswer[]> {
  const settings = opts.settings ?? env.settings;
  const factsBy = new Map(facts.services.map((f) => [f.name, f]));
  // Only the services asked about: facts read with other reviews' hold theirs too (fact-reads.ts).
  const asked = new Set(asks.map((a) => a.service));
  const eolOf = settings.refuseEol ? await loadEolForRuns(ctx, facts.services.filter((s) => asked.has(s.name))) : () => null;
  const previousIds = new Set(env.previous.map((e) => e.id));
  const previousName = env.previous.length > 0 ? env.previous.map((e) => e.name).join(" or ") : null;
  const tagsOf = (key: string | null) => (key === null ? null : (facts.upstream.get(key)?.tags ?? null));

  return asks.map((ask): JudgedAnswer => {
    const f = factsBy.get(ask.service);
    const all: GateRunRow[] = f ? (facts.runs.get(f.id) ?? []) : [];
    const rows = ask.container === undefined ? all.filter((r) => r.isMain) : all.filter((r) => r.container === ask.container);
    // A container Driftwatch has never seen run for this service, in any environment, is as unknown as a service.
    const seen = f !== undefined && (ask.container === undefined || (facts.containersSeen.get(f.id)?.has(ask.container) ?? false));
    const ref = ask.image === undefined ? null : parseImageRef(ask.image);
    const serviceKey = f ? (f.repository ?? f.runningRepository) : null;
    const imageKey = ref?.key ?? null;
    // A run's tags are its repository's when that is the image's or the service's: the ones read.
    const runTags = (key: string) => (key === imageKey || key === serviceKey ? tagsOf(key) : null);
    // Runs repeat a few tags (each target, each redeploy): each is worked out once.
    const exactOf = new Map<string, string | null>();
    const exact = rows.map((r) => {
      const key = `${r.repository}\0${r.tag}\0${r.version}\0${r.resolved}`;
      let v = exactOf.get(key);
      if (v === undefined) exactOf.set(key, (v = exactVersionOf({ tag: r.tag, tagVersion: r.version, resolvedVersion: r.resolved }, runTags(r.repository))));
      return v;
    });
    const byDigest: { digest: string | null; version: string | null }[] = [];
    const runs: GateRun[] = [];
    rows.forEach((r, i) => {
      const v = exact[i] ?? null;
      if (ref && r.repository === ref.key) byDigest.push({ digest: r.digest, version: v }, { digest: r.platformDigest, version: v });
      const environment = r.environmentId === env.row.id ? env.row.name : previousIds.has(r.environmentId) ? previousName : null;
      if (environment !== null) runs.push({ environment, version: v, from: r.from, to: r.to });
    });
    const version = ask.version ?? (ref
      ? versionOfImage({
          tag: ref.tag, digest: ref.digest, upstreamTags: tagsOf(ref.key),
          resolvedVersion: ref.digest === null ? null : (facts.upstream.get(ref.key)?.resolvedBy.get(ref.digest) ?? null),
          runs: byDigest,
        })
      : null);
    const eol = f && version !== null ? eolOf(f.id, version) : null;
    const decision = decideGate({
      settings, environment: env.row.name, previous: previousName, isKnownService: seen, version,
      asked: ask.image ?? ask.version ?? "", runs, now: ctx.now,
      eol: eol ? { product: eol.product, cycle: eol.cycle, eolDate: eol.eol_date, passed: eol.state === "passed" } : null,
    });
    if (f !== undefined && !seen) {
      const detail = `Driftwatch has never seen container ${ask.container} of ${ask.service} run anywhere.`;
      decision.reasons = decision.reasons.map((r) => (r.code === "unknown_service" ? { ...r, detail } : r));
    }
    return { ...decision, service: ask.service, environment: env.row.name, team: f?.team ?? null };
  });
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
function refusalEvents(ctx: GateCtx, workspace: string, answers: readonly RecordedAnswer[]): Omit<OutboxEventRow, "routedAt">[] {
  return answers.filter((a) => !a.allowed).map((a) => {
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

export async function recordGateAnswers(
  ctx: GateCtx, workspace: { id: string; name: string }, env: GateEnvironment, actor: string, via: "api" | "admission", answers: readonly RecordedAnswer[], extra: Record<string, unknown> = {},
): Promise<void> {
  await writeGateDecision(ctx.db, {
    workspaceId: workspace.id, environmentId: env.row.id, actor, now: ctx.now,
    events: refusalEvents(ctx, workspace.name, answers),
    entries: answers.map((a) => ({
      subject: a.service,
      decision: decisionOf(a),
      data: { via, environment: a.environment, asked: a.asked, version: a.version, mode: a.mode, allowed: a.allowed, reasons: a.reasons, ...extra },
    })),
  });
}
