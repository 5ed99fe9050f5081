import { agentReportBody, reportOutcomeSchema } from "../schemas/agent";
import { defineOperation } from "../operation";

export const agentOps = {
  agentReport: defineOperation({
    id: "postAgentReport", method: "POST", path: "/api/v1/agent/report", summary: "An agent reports the whole current state of one target", tags: ["agent"], auth: "agent",
    description:
      "Authenticated with an agent key. A workload missing from the report has stopped. History rows open at each workload's `since` (the runtime's start time); a workload whose image changed closes at the new one's `since`; one that is gone closes at `observed_at`. A report older than the last accepted one for its target is ignored; the same workloads and `since` values again change nothing.",
    body: agentReportBody,
    responses: { 202: { description: "Accepted", schema: reportOutcomeSchema } },
  }),
};
