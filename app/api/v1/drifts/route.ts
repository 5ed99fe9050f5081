import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { listDrifts } from "@/lib/services/drift/list-drifts";

export const GET = handle(ops.listDrifts, ({ ctx, query }) => listDrifts({ ctx, query }));
