import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { createAck, listAcks } from "@/lib/services/acks/create";

export const GET = handle(ops.listAcks, ({ ctx, query }) => listAcks({ ctx, query }));
export const POST = handle(ops.createAck, async ({ ctx, body }) => reply(201, await createAck({ ctx, input: body })));
