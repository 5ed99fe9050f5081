import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { revokeApiToken } from "@/lib/services/api-tokens/create";

export const DELETE = handle(ops.revokeToken, async ({ ctx, params }) => {
  await revokeApiToken({ ctx, id: params.id });
  return reply(204);
});
