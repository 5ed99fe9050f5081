// Nomad HTTP API wire formats (only the fields read).
import { z } from "zod";

const meta = z.record(z.string(), z.string()).nullish().transform((v) => v ?? {});

export const taskStateSchema = z.object({
  State: z.string(),
  Restarts: z.number().int().nonnegative().default(0),
  StartedAt: z.string().nullish(),
  FinishedAt: z.string().nullish(),
});

export const allocationStubSchema = z.object({
  ID: z.string(),
  Namespace: z.string().default("default"),
  NodeID: z.string().optional(),
  JobID: z.string(),
  TaskGroup: z.string(),
  ClientStatus: z.string(),
});
export const allocationListSchema = z.array(allocationStubSchema);

const taskSchema = z.object({
  Name: z.string(),
  Driver: z.string(),
  Config: z.record(z.string(), z.unknown()).nullish().transform((v) => v ?? {}),
  Meta: meta,
  Lifecycle: z.object({ Hook: z.string().optional(), Sidecar: z.boolean().optional() }).nullish(),
  Kind: z.string().nullish(),
});

export const allocationSchema = allocationStubSchema.extend({
  CreateTime: z.number(),
  TaskStates: z.record(z.string(), taskStateSchema).nullish().transform((v) => v ?? {}),
  DeploymentStatus: z.object({ Healthy: z.boolean().nullish() }).nullish(),
  Job: z.object({
    ID: z.string(),
    Region: z.string().optional(),
    Meta: meta,
    TaskGroups: z.array(z.object({ Name: z.string(), Meta: meta, Tasks: z.array(taskSchema) })),
  }),
});

export const agentSelfSchema = z.object({ config: z.object({ Region: z.string().optional() }).optional() });

export type AllocationStub = z.infer<typeof allocationStubSchema>;
export type Allocation = z.infer<typeof allocationSchema>;
export type NomadTask = z.infer<typeof taskSchema>;
