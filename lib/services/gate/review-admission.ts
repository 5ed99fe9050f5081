// A Kubernetes admission review, judged: every container and init container of
// the workload asks the gate of the environment the webhook's address names.
// Enforce refuses with every reason in the message; audit allows with warnings.
// The address's key, the environment and the services' history come in one read:
// the webhook is on every deploy's path.
import type { AdmissionAnswer, AdmissionImage } from "@/lib/adapters/runtimes/kubernetes/admission";
import { AppError } from "@/lib/domain/errors";
import { isSignedWith, type SignedAdmission } from "./admission-address";
import { gateEnvironmentOf, judgeGate, readFactsFor, recordGateAnswers, type GateCtx } from "./judge";

// The API server may cut warnings longer than this before returning them to the user.
const MAX_WARNING = 256;

/** A wrong address (any part) is a bare not_found; callers answer 404 without saying which part. */
export async function reviewAdmission({ ctx, input }: {
  ctx: GateCtx;
  input: { address: SignedAdmission; images: readonly AdmissionImage[]; workload: string; namespace: string; dryRun: boolean };
}): Promise<AdmissionAnswer> {
  const asks = input.images.map((i) => ({ service: i.service, image: i.image, ...(i.main ? {} : { container: i.container }) }));
  const facts = await readFactsFor(ctx, { badgeKeyId: input.address.keyId }, asks, input.address.environment);
  const ws = facts.workspace;
  if (!isSignedWith(input.address, ws && ws.badgeSecret !== null ? { workspaceId: ws.id, secret: ws.badgeSecret } : null)) throw new AppError("not_found", "Not found.");
  const env = gateEnvironmentOf(facts.environments, input.address.environment);
  // The address was signed for an environment that has since been removed.
  if (!env) throw new AppError("not_found", "Not found.");
  if (input.images.length === 0) return { allowed: true, message: null, warnings: [] };
  const answers = await judgeGate(ctx, facts, env, asks);
  // A dry run (kubectl --dry-run=server) changes nothing: the webhook declares no side effects, so nothing is recorded.
  if (!input.dryRun) {
    await recordGateAnswers(ctx, ws!, env, "admission", "admission",
      answers.map((a, i) => ({ ...a, asked: input.images[i]!.image, image: input.images[i]!.image })), { workload: input.workload, namespace: input.namespace });
  }
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
