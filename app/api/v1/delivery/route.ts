import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { jsonResponse } from "@/lib/http/cached-response";
import { getDelivery } from "@/lib/services/insights/delivery";

export const GET = handle(ops.getDelivery, async ({ ctx, query }) => jsonResponse(await getDelivery({ ctx, input: { window: query.window } })));
