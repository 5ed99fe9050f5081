import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { jsonResponse } from "@/lib/http/cached-response";
import { listUpdates } from "@/lib/services/insights/updates";

export const GET = handle(ops.listUpdates, async ({ ctx, query }) => jsonResponse(await listUpdates({ ctx, input: query })));
