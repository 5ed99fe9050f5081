// One notification rule, secrets masked.
import { requireRole, type RequestCtx } from "../context";
import { getRuleRowOrThrow, toRuleOut, type RuleOut } from "./rules";

export async function getRule({ ctx, input: { id } }: { ctx: RequestCtx; input: { id: string } }): Promise<RuleOut> {
  requireRole(ctx.actor, "member");
  return toRuleOut(await getRuleRowOrThrow(ctx, id));
}
