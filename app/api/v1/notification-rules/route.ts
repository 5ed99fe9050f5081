import { ops } from "@/lib/api/operations";
import { handle, reply } from "@/lib/http/route";
import { createRule } from "@/lib/services/notification-rules/create";
import { listRules } from "@/lib/services/notification-rules/list";

export const GET = handle(ops.listNotificationRules, ({ ctx }) => listRules({ ctx }));
export const POST = handle(ops.createNotificationRule, async ({ ctx, body }) => reply(201, await createRule({ ctx, input: body })));
