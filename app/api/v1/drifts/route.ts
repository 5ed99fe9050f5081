import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { jsonResponse } from "@/lib/http/cached-response";
import { listDrifts } from "@/lib/services/drift/list-drifts";

export const GET = handle(ops.listDrifts, async ({ ctx, query }) => jsonResponse(await listDrifts({ ctx, input: query })));
