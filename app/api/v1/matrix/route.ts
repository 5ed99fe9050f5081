import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { getMatrix } from "@/lib/services/get-matrix";

export const GET = handle(ops.getMatrix, ({ ctx, query }) => getMatrix({ ctx, query }));
