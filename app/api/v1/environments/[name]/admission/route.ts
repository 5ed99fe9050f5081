import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { getAdmissionAddress } from "@/lib/services/gate/admission-address";

export const GET = handle(ops.getEnvironmentAdmission, ({ ctx, params, query }) =>
  getAdmissionAddress({ ctx, input: { name: params.name, failure_policy: query.failure_policy, namespaces: query.namespaces?.split(",") } }));
