// The matrix as the API and its page give it: the matrix and its summary line,
// whose counts are the lengths of the lists they link to (the updates list,
// drift with its default filter, promotions) and the quiet targets. Read
// through those lists' own use cases, so the numbers cannot disagree.
import type { z } from "zod";
import type { matrixQuerySchema, matrixSchema, matrixSummarySchema } from "@/lib/services/matrix/schemas";
import { requireRole, workspaceOf, type RequestCtx } from "../context";
import { listDrifts } from "../drift/list-drifts";
import { listPromotionsForWorkspace } from "../insights/promotions";
import { listUpdates } from "../insights/updates";
import { getMatrix, getWholeMatrix } from "./get";

export type MatrixSummary = z.infer<typeof matrixSummarySchema>;

export async function getMatrixSummary({ ctx }: { ctx: RequestCtx }): Promise<MatrixSummary> {
  requireRole(ctx.actor, "viewer");
  const [updates, drifts, promotions, whole] = await Promise.all([
    listUpdates({ ctx, input: {} }),
    listDrifts({ ctx, input: {} }),
    listPromotionsForWorkspace({ ctx }),
    getWholeMatrix(ctx, workspaceOf(ctx.actor)),
  ]);
  return { to_act_on: updates.items.length, open_drifts: drifts.items.length, promotions_waiting: promotions.items.length, quiet_targets: whole.quietTargets };
}

type MatrixWithSummary = z.infer<typeof matrixSchema>;

/**
 * The answer for a cached matrix and the same counts is the same object, so the HTTP edge
 * serialises and compresses a whole-fleet matrix (megabytes) once, not on every request.
 */
const combined = new WeakMap<object, { key: string; value: MatrixWithSummary }>();

export async function getMatrixWithSummary({ ctx, input }: { ctx: RequestCtx; input: z.infer<typeof matrixQuerySchema> }): Promise<MatrixWithSummary> {
  const [matrix, summary] = await Promise.all([getMatrix({ ctx, input }), getMatrixSummary({ ctx })]);
  const key = JSON.stringify(summary);
  const hit = combined.get(matrix);
  if (hit?.key === key) return hit.value;
  const value = { ...matrix, summary };
  combined.set(matrix, { key, value });
  return value;
}
