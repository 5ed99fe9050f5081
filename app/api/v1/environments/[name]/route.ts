import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { updateEnvironment } from "@/lib/services/environments/list";

export const PATCH = handle(ops.updateEnvironment, ({ ctx, params, body }) => updateEnvironment({ ctx, name: params.name, input: body }));
