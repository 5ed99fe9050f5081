import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { deleteRule, getRule, updateRule } from "@/lib/services/notification-rules/list";

export const GET = handle(ops.getNotificationRule, ({ ctx, params }) => getRule({ ctx, id: params.id }));
export const PATCH = handle(ops.updateNotificationRule, ({ ctx, params, body }) => updateRule({ ctx, id: params.id, input: body }));
export const DELETE = handle(ops.deleteNotificationRule, async ({ ctx, params }) => {
  await deleteRule({ ctx, id: params.id });
  return reply(204);
});
