import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { createApiToken } from "@/lib/services/api-tokens/create";
import { listApiTokens } from "@/lib/services/api-tokens/list";

export const GET = handle(ops.listTokens, ({ ctx }) => listApiTokens({ ctx }));
export const POST = handle(ops.createToken, async ({ ctx, body }) => reply(201, await createApiToken({ ctx, input: body })));
