import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { revokeApiToken } from "@/lib/services/api-tokens/revoke";

export const DELETE = handle(ops.revokeToken, async ({ ctx, params }) => {
  await revokeApiToken({ ctx, input: { id: params.id } });
  return reply(204);
});
