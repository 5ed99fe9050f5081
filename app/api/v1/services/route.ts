import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { createService } from "@/lib/services/services/create";
import { listServices } from "@/lib/services/services/list";

export const GET = handle(ops.listServices, ({ ctx, query }) => listServices({ ctx, input: { team: query.team } }));
export const POST = handle(ops.createService, async ({ ctx, body }) => reply(201, await createService({ ctx, input: body })));
