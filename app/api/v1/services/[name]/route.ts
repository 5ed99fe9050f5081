import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { getServiceOrThrow } from "@/lib/services/services/get";
import { updateService } from "@/lib/services/services/update";

export const GET = handle(ops.getService, ({ ctx, params }) => getServiceOrThrow({ ctx, input: { name: params.name } }));
export const PATCH = handle(ops.updateService, ({ ctx, params, body }) => updateService({ ctx, input: { name: params.name, ...body } }));
