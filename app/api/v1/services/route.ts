import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { createService, listServices } from "@/lib/services/services/list";

export const GET = handle(ops.listServices, ({ ctx, query }) => listServices({ ctx, team: query.team }));
export const POST = handle(ops.createService, async ({ ctx, body }) => reply(201, await createService({ ctx, input: body })));
