import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { jsonResponse } from "@/lib/http/cached-response";
import { getMatrixWithSummary } from "@/lib/services/matrix/get-with-summary";

export const GET = handle(ops.getMatrix, async ({ ctx, query }) => jsonResponse(await getMatrixWithSummary({ ctx, input: query })));
