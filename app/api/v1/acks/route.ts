import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { createAck } from "@/lib/services/acks/create";
import { listAcks } from "@/lib/services/acks/list";

export const GET = handle(ops.listAcks, ({ ctx, query }) => listAcks({ ctx, input: query }));
export const POST = handle(ops.createAck, async ({ ctx, body }) => reply(201, await createAck({ ctx, input: body })));
