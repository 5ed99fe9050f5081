// Targets as the API shows them, and a Compose-in-Git target as it accepts one.
import { z } from "zod";
import { nullableTimestamp } from "../schemas";

export const targetSchema = z
  .object({
    name: z.string(),
    kind: z.enum(["docker", "kubernetes", "swarm", "nomad", "compose_git"]),
    environment: z.string(),
    repository_url: z.string().nullable(),
    branch: z.string().nullable(),
    paths: z.array(z.string()),
    /** compose_git only: who reads the files, the server (added here) or an agent (`--compose-git`); null for runtimes. */
    read_by: z.enum(["server", "agent"]).nullable(),
    last_report_at: nullableTimestamp,
    last_observed_at: nullableTimestamp,
    last_commit: z.string().nullable(),
    last_error: z.string().nullable(),
    workloads: z.number().int(),
  })
  .meta({ id: "Target" });

export const targetListSchema = z.object({ items: z.array(targetSchema) }).meta({ id: "TargetList" });

export const createComposeTargetSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,199}$/).optional(),
    environment: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,99}$/),
    kind: z.literal("compose_git"),
    repository_url: z.string().min(1).max(1000),
    branch: z
      .string()
      .min(1)
      .max(200)
      // A branch name git accepts (check-ref-format): no "..", no leading "-" or "/", no "//", not ending in "/", "." or ".lock".
      .regex(/^(?![-/.])(?!.*\.\.)(?!.*\/\/)(?!.*\/\.)(?!.*[/.]$)(?!.*\.lock$)[A-Za-z0-9._/-]+$/, { message: "must be a branch name such as main or release/1.2" })
      .default("main"),
    paths: z.array(z.string().min(1).max(500).regex(/^(?!\/)(?!.*\.\.)[A-Za-z0-9._/ -]+$/, { message: "must be a relative path inside the repository" })).min(1).max(20),
  })
  .strict()
  .meta({ id: "CreateComposeTarget" });
