import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { listHistory } from "@/lib/services/history/list";

export const GET = handle(ops.listHistory, ({ ctx, query }) => listHistory({ ctx, input: query }));
