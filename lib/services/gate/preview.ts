// What each gated environment would accept of a service now: the versions that
// run in the environment before it and not yet there, judged as the gate would
// in enforce mode (the service page's "production accepts …" line). Nothing is recorded.
import { getGateUpstream } from "@/lib/db/queries/gate/get-gate-upstream";
import { listGateEnvironments } from "@/lib/db/queries/gate/list-gate-environments";
import { listGateRuns } from "@/lib/db/queries/gate/list-gate-runs";
import { listGateServices } from "@/lib/db/queries/gate/list-gate-services";
import { soakedMs, type GateReason } from "@/lib/domain/gate";
import { exactVersionOf } from "@/lib/domain/running-version";
import { workspaceOf, type RequestCtx } from "../context";
import { gateEnvironmentOf, judgeGate } from "./judge";

export type GatePreview = {
  environment: string;
  mode: "audit" | "enforce";
  previous: string;
  accepts: { version: string; soaked_seconds: number }[];
  waits: { version: string; reasons: GateReason[] }[];
};

export async function previewGate({ ctx, input }: { ctx: RequestCtx; input: { service: string } }): Promise<GatePreview[]> {
  const workspaceId = workspaceOf(ctx.actor);
  const envs = await listGateEnvironments(ctx.db, workspaceId);
  const gated = envs.map((e) => gateEnvironmentOf(envs, e.name)!).filter((e) => e.settings.mode !== "off" && e.previous.length > 0);
  if (gated.length === 0) return [];
  const [f] = await listGateServices(ctx.db, workspaceId, [input.service]);
  if (!f) return [];
  const key = f.repository ?? f.runningRepository;
  const [runsBy, upstream] = await Promise.all([listGateRuns(ctx.db, workspaceId, [f.id]), key ? getGateUpstream(ctx.db, workspaceId, key, null) : null]);
  const runs = (runsBy.get(f.id) ?? []).filter((r) => r.isMain).map((r) => ({
    ...r, exact: exactVersionOf({ tag: r.tag, tagVersion: r.version, resolvedVersion: r.resolved }, r.repository === key ? (upstream?.tags ?? null) : null),
  })).sort((a, b) => new Date(b.from).getTime() - new Date(a.from).getTime());

  const out: GatePreview[] = [];
  for (const env of gated) {
    const previousIds = new Set(env.previous.map((e) => e.id));
    const here = new Set(runs.filter((r) => r.environmentId === env.row.id && r.to === null).map((r) => r.exact));
    const candidates = [...new Set(runs.filter((r) => previousIds.has(r.environmentId) && r.to === null && r.exact !== null && !here.has(r.exact)).map((r) => r.exact!))];
    if (candidates.length === 0) continue;
    const answers = await judgeGate(ctx, workspaceId, env, candidates.map((version) => ({ service: input.service, version })), { settings: { ...env.settings, mode: "enforce" } });
    const soaked = (version: string) => Math.floor(soakedMs(runs.filter((r) => previousIds.has(r.environmentId) && r.exact === version).map((r) => ({ from: new Date(r.from), to: r.to === null ? null : new Date(r.to) })), ctx.now) / 1000);
    out.push({
      environment: env.row.name,
      mode: env.settings.mode as "audit" | "enforce",
      previous: env.previous.map((e) => e.name).join(" or "),
      accepts: answers.filter((a) => a.reasons.length === 0).map((a) => ({ version: a.version!, soaked_seconds: soaked(a.version!) })),
      waits: answers.filter((a) => a.reasons.length > 0).map((a) => ({ version: a.version!, reasons: a.reasons })),
    });
  }
  return out;
}
