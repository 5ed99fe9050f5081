import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { recordAgentReport } from "@/lib/services/agent-reports/record";

export const POST = handle(ops.agentReport, async ({ ctx, body }) => reply(202, await recordAgentReport({ ctx, input: body })));
