// Every /api/v1 route module, for the server's direct API path
// (lib/http/direct.ts), which calls these same handlers without Next.js's
// router. A route file missing here would be answered by Next.js alone;
// lib/http/direct.test.ts checks that none is.
import * as acksId from "./v1/acks/[id]/route";
import * as acks from "./v1/acks/route";
import * as agentReport from "./v1/agent/report/route";
import * as calendar from "./v1/calendar/route";
import * as delivery from "./v1/delivery/route";
import * as drifts from "./v1/drifts/route";
import * as environmentsNameAdmission from "./v1/environments/[name]/admission/route";
import * as environmentsName from "./v1/environments/[name]/route";
import * as environments from "./v1/environments/route";
import * as gate from "./v1/gate/route";
import * as history from "./v1/history/route";
import * as matrix from "./v1/matrix/route";
import * as notificationRulesIdDeliveries from "./v1/notification-rules/[id]/deliveries/route";
import * as notificationRulesId from "./v1/notification-rules/[id]/route";
import * as notificationRulesIdTest from "./v1/notification-rules/[id]/test/route";
import * as notificationRules from "./v1/notification-rules/route";
import * as openapiYaml from "./v1/openapi.yaml/route";
import * as promotions from "./v1/promotions/route";
import * as servicesNameBadge from "./v1/services/[name]/badge/route";
import * as servicesNameCheck from "./v1/services/[name]/check/route";
import * as servicesName from "./v1/services/[name]/route";
import * as services from "./v1/services/route";
import * as targets from "./v1/targets/route";
import * as tokensId from "./v1/tokens/[id]/route";
import * as tokens from "./v1/tokens/route";
import * as updates from "./v1/updates/route";

export const apiRouteModules = [
  acksId,
  acks,
  agentReport,
  calendar,
  delivery,
  drifts,
  environmentsNameAdmission,
  environmentsName,
  environments,
  gate,
  history,
  matrix,
  notificationRulesIdDeliveries,
  notificationRulesId,
  notificationRulesIdTest,
  notificationRules,
  openapiYaml,
  promotions,
  servicesNameBadge,
  servicesNameCheck,
  servicesName,
  services,
  targets,
  tokensId,
  tokens,
  updates,
];
