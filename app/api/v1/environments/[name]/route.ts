import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { updateEnvironment } from "@/lib/services/environments/update";

export const PATCH = handle(ops.updateEnvironment, ({ ctx, params, body }) => updateEnvironment({ ctx, input: { name: params.name, ...body } }));
