import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { listDeliveries } from "@/lib/services/notifications/list-deliveries";

export const GET = handle(ops.listRuleDeliveries, ({ ctx, params, query }) => listDeliveries({ ctx, input: { id: params.id, ...query } }));
