import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { deleteRule } from "@/lib/services/notification-rules/delete";
import { getRule } from "@/lib/services/notification-rules/get";
import { updateRule } from "@/lib/services/notification-rules/update";

export const GET = handle(ops.getNotificationRule, ({ ctx, params }) => getRule({ ctx, input: { id: params.id } }));
export const PATCH = handle(ops.updateNotificationRule, ({ ctx, params, body }) => updateRule({ ctx, input: { id: params.id, ...body } }));
export const DELETE = handle(ops.deleteNotificationRule, async ({ ctx, params }) => {
  await deleteRule({ ctx, input: { id: params.id } });
  return reply(204);
});
