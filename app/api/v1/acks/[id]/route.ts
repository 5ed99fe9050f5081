import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { deleteAck } from "@/lib/services/acks/create";

export const DELETE = handle(ops.deleteAck, async ({ ctx, params }) => {
  await deleteAck({ ctx, id: params.id });
  return reply(204);
});
