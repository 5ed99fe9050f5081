// A Kubernetes admission review, judged: every container and init container of
// the workload asks the gate of the environment the webhook's address names.
// Enforce refuses with every reason in the message; audit allows with warnings.
import type { AdmissionAnswer, AdmissionImage } from "@/lib/adapters/runtimes/kubernetes/admission";
import { AppError } from "@/lib/domain/errors";
import { gateEnvironmentOf, judgeGate, recordGateAnswers } from "./judge";
import { listGateEnvironments } from "@/lib/db/queries/gate/list-gate-environments";
import type { RequestCtx } from "../context";

// The API server may cut warnings longer than this before returning them to the user.
const MAX_WARNING = 256;

export async function reviewAdmission({ ctx, input }: {
  ctx: RequestCtx;
  input: { workspaceId: string; environment: string; images: readonly AdmissionImage[]; workload: string; namespace: string };
}): Promise<AdmissionAnswer> {
  const env = gateEnvironmentOf(await listGateEnvironments(ctx.db, input.workspaceId), input.environment);
  // The address was signed for an environment that has since been removed.
  if (!env) throw new AppError("not_found", "Not found.");
  if (input.images.length === 0) return { allowed: true, message: null, warnings: [] };
  const asks = input.images.map((i) => ({ service: i.service, image: i.image, ...(i.main ? {} : { container: i.container }) }));
  const answers = await judgeGate(ctx, input.workspaceId, env, asks);
  await recordGateAnswers(ctx, input.workspaceId, env, "admission", "admission",
    answers.map((a, i) => ({ ...a, asked: input.images[i]!.image, image: input.images[i]!.image })), { workload: input.workload, namespace: input.namespace });
  const lines = answers.flatMap((a, i) => {
    const image = input.images[i]!;
    return a.reasons.map((r) => `${image.service} ${a.version ?? image.image} (container ${image.container}): ${r.code}: ${r.detail}`);
  });
  const allowed = answers.every((a) => a.allowed);
  return {
    allowed,
    message: allowed ? null : `Driftwatch gate refused this in ${env.row.name}: ${lines.join("; ")}`,
    warnings: allowed ? lines.map((l) => (l.length > MAX_WARNING ? `${l.slice(0, MAX_WARNING - 1)}…` : l)) : [],
  };
}
