import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { getServiceOrThrow, updateService } from "@/lib/services/services/list";

export const GET = handle(ops.getService, ({ ctx, params }) => getServiceOrThrow({ ctx, name: params.name }));
export const PATCH = handle(ops.updateService, ({ ctx, params, body }) => updateService({ ctx, name: params.name, input: body }));
