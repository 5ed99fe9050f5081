// An agent's report as the API accepts it, and what it answers.
import { z } from "zod";
import { agentReportSchema } from "@/lib/domain/agent-report";
import { NAME_RE } from "../schemas";

/** The report as the API accepts it: names must be usable in URLs. */
export const agentReportBody = agentReportSchema
  .superRefine((report, ctx) => {
    if (!NAME_RE.test(report.environment)) ctx.addIssue({ code: "custom", path: ["environment"], message: "must be a name of letters, digits and . _ : @ + -" });
    report.workloads.forEach((w, i) => {
      if (!NAME_RE.test(w.service)) ctx.addIssue({ code: "custom", path: ["workloads", i, "service"], message: "must be a name of letters, digits and . _ : @ + -" });
    });
  })
  .meta({ id: "AgentReport" });

export const reportOutcomeSchema = z
  .object({
    accepted: z.literal(true),
    target: z.string(),
    environment: z.string(),
    changed: z.boolean(),
    ignored: z.enum(["stale"]).nullable(),
    opened: z.number().int(),
    closed: z.number().int(),
  })
  .meta({ id: "ReportOutcome" });
