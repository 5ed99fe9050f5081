import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { createComposeTarget } from "@/lib/services/targets/create-compose";
import { listTargets } from "@/lib/services/targets/list";

export const GET = handle(ops.listTargets, ({ ctx }) => listTargets({ ctx }));
export const POST = handle(ops.createTarget, async ({ ctx, body }) => reply(201, await createComposeTarget({ ctx, input: body })));
