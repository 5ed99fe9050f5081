import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { deleteAck } from "@/lib/services/acks/delete";

export const DELETE = handle(ops.deleteAck, async ({ ctx, params }) => {
  await deleteAck({ ctx, input: { id: params.id } });
  return reply(204);
});
