import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { createApiToken } from "@/lib/services/create-api-token";
import { listApiTokens } from "@/lib/services/list-api-tokens";

export const GET = handle(ops.listTokens, ({ ctx }) => listApiTokens({ ctx }));
export const POST = handle(ops.createToken, async ({ ctx, body }) => reply(201, await createApiToken({ ctx, input: body })));
