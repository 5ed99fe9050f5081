// The registries the workspace's upstream checks cannot reach, for the banner
// over the matrix and Updates: each host, how many repositories it affects,
// and the reason most of them give.
import { groupFailingRegistries, type FailingRegistry } from "@/lib/domain/upstream";
import type { RequestCtx } from "../context";
import { getMatrix } from "../matrix/get";
import { registryHostOf } from "./status";

export async function listFailingRegistries({ ctx }: { ctx: RequestCtx }): Promise<FailingRegistry[]> {
  const matrix = await getMatrix({ ctx, input: {} });
  // Services that share a repository count it once.
  const byRepository = new Map<string, { host: string; state: (typeof matrix.services)[number]["upstream"]["state"]; error: string | null }>();
  for (const s of matrix.services) {
    const { repository, state, error } = s.upstream;
    if (repository !== null) byRepository.set(repository, { host: registryHostOf(repository), state, error });
  }
  return groupFailingRegistries([...byRepository.values()]);
}
