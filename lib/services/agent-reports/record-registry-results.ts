// What an agent looked up in registries the server may not query: tags,
// digests and resolved moving tags, kept as that workspace's own repository.
import { recordAgentRegistryResult } from "@/lib/db/queries/upstream/record-agent-registry-result";
import type { RegistryResult } from "@/lib/domain/agent-report";
import { parseImageRef } from "@/lib/domain/image-ref";
import type { RequestCtx } from "../context";

export async function recordRegistryResults({ ctx, input: { workspaceId, results } }: { ctx: RequestCtx; input: { workspaceId: string; results: RegistryResult[] } }): Promise<void> {
  const now = ctx.now;
  for (const result of results) {
    const ref = parseImageRef(result.repository);
    if (!ref) continue;
    await ctx.db.$transaction((tx) => recordAgentRegistryResult(tx, workspaceId, { ...result, ref }, now));
  }
}
