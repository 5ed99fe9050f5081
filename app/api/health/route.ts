import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { checkHealth } from "@/lib/services/health/check";

export const GET = handle(ops.health, ({ ctx }) => checkHealth({ ctx }));
