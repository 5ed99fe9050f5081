import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { createEnvironment } from "@/lib/services/environments/create";
import { listEnvironments } from "@/lib/services/environments/list";

export const GET = handle(ops.listEnvironments, ({ ctx }) => listEnvironments({ ctx }));
export const POST = handle(ops.createEnvironment, async ({ ctx, body }) => reply(201, await createEnvironment({ ctx, input: body })));
