import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { jsonResponse } from "@/lib/http/cached-response";
import { listPromotionsForWorkspace } from "@/lib/services/insights/promotions";

export const GET = handle(ops.listPromotions, async ({ ctx }) => jsonResponse(await listPromotionsForWorkspace({ ctx })));
