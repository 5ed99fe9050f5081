// What each gated environment would accept of a service now: the versions that
// run in the environment before it and not yet there, judged as the gate would
// in enforce mode (the service page's "production accepts …" line). Nothing is recorded.
import { soakedMs, type GateReason } from "@/lib/domain/gate";
import { exactVersionOf } from "@/lib/domain/running-version";
import { workspaceOf, type RequestCtx } from "../context";
import { gateEnvironmentOf, judgeGate, readFactsFor } from "./judge";

export type GatePreview = {
  environment: string;
  mode: "audit" | "enforce";
  previous: string;
  accepts: { version: string; soaked_seconds: number }[];
  waits: { version: string; reasons: GateReason[] }[];
};

export async function previewGate({ ctx, input }: { ctx: RequestCtx; input: { service: string } }): Promise<GatePreview[]> {
  const workspaceId = workspaceOf(ctx.actor);
  const facts = await readFactsFor(ctx, { id: workspaceId }, [{ service: input.service }]);
  const envs = facts.environments;
  const gated = envs.map((e) => gateEnvironmentOf(envs, e.name)!).filter((e) => e.settings.mode !== "off" && e.previous.length > 0);
  const [f] = facts.services;
  if (gated.length === 0 || !f) return [];
  const key = f.repository ?? f.runningRepository;
  const tags = key === null ? null : (facts.upstream.get(key)?.tags ?? null);
  const runs = (facts.runs.get(f.id) ?? []).filter((r) => r.isMain).map((r) => ({
    ...r, exact: exactVersionOf({ tag: r.tag, tagVersion: r.version, resolvedVersion: r.resolved }, r.repository === key ? tags : null),
  })).sort((a, b) => b.from.getTime() - a.from.getTime());

  const out: GatePreview[] = [];
  for (const env of gated) {
    const previousIds = new Set(env.previous.map((e) => e.id));
    const here = new Set(runs.filter((r) => r.environmentId === env.row.id && r.to === null).map((r) => r.exact));
    const candidates = [...new Set(runs.filter((r) => previousIds.has(r.environmentId) && r.to === null && r.exact !== null && !here.has(r.exact)).map((r) => r.exact!))];
    if (candidates.length === 0) continue;
    const answers = await judgeGate(ctx, facts, env, candidates.map((version) => ({ service: input.service, version })), { settings: { ...env.settings, mode: "enforce" } });
    const soaked = (version: string) => Math.floor(soakedMs(runs.filter((r) => previousIds.has(r.environmentId) && r.exact === version), ctx.now) / 1000);
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
