// Every API operation, in one table assembled from one module per area.
// Route files bind handlers to these; lib/api/openapi.ts renders them as the
// OpenAPI document, and lib/api/route-table.ts answers unknown routes.
import { agentOps } from "./ops/agent";
import { driftOps } from "./ops/drift";
import { badgesOps } from "./ops/badges";
import { calendarOps } from "./ops/calendar";
import { environmentsOps } from "./ops/environments";
import { gateOps } from "./ops/gate";
import { insightsOps } from "./ops/insights";
import { metaOps } from "./ops/meta";
import { runtimeOps } from "./ops/runtime";
import { checkOps, servicesOps } from "./ops/services";
import { tokensOps } from "./ops/tokens";

export const ops = {
  ...metaOps,
  ...environmentsOps,
  ...servicesOps,
  ...checkOps,
  ...tokensOps,
  ...agentOps,
  ...runtimeOps,
  ...driftOps,
  ...insightsOps,
  ...badgesOps,
  ...calendarOps,
  ...gateOps,
};

export type Ops = typeof ops;
