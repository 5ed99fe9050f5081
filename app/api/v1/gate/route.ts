import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { askGate } from "@/lib/services/gate/ask";

export const POST = handle(ops.askGate, ({ ctx, body }) => askGate({ ctx, input: body }));
