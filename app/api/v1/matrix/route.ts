import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { jsonResponse } from "@/lib/http/cached-response";
import { getMatrix } from "@/lib/services/matrix/get";

export const GET = handle(ops.getMatrix, async ({ ctx, query }) => jsonResponse(await getMatrix({ ctx, input: query })));
