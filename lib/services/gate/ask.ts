// May this version run in this environment now? Viewers may ask (a CI job
// needs no write access); every answer is recorded in the audit log and counted.
import type { z } from "zod";
import { actorLabel, requireRole, workspaceOf, type RequestCtx } from "../context";
import { judgeGate, readFactsFor, recordGateAnswers, requireGateEnvironment, type GateAnswer } from "./judge";
import type { askGateSchema } from "./schemas";

export async function askGate({ ctx, input }: { ctx: RequestCtx; input: z.infer<typeof askGateSchema> }): Promise<GateAnswer> {
  requireRole(ctx.actor, "viewer");
  const workspaceId = workspaceOf(ctx.actor);
  const ask = { service: input.service, ...(input.image !== undefined ? { image: input.image } : { version: input.version! }) };
  const facts = await readFactsFor(ctx, { id: workspaceId }, [ask], input.environment);
  const env = requireGateEnvironment(facts, input.environment, "/environment");
  const [judged] = await judgeGate(ctx, facts, env, [ask]);
  await recordGateAnswers(ctx, { id: workspaceId, name: facts.workspace?.name ?? "" }, env, actorLabel(ctx.actor), "api", [{ ...judged!, asked: input.image ?? input.version ?? "", ...(input.image !== undefined ? { image: input.image } : {}) }]);
  const { team: _team, ...answer } = judged!;
  return answer;
}
