import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { testSendRule } from "@/lib/services/notification-rules/test-send";

export const POST = handle(ops.testNotificationRule, ({ ctx, params }) => testSendRule({ ctx, input: { id: params.id } }));
