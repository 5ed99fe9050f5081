// Docker Swarm wire formats (Engine API on a manager), only the fields read.
import { z } from "zod";

const labels = z.record(z.string(), z.string()).nullish().transform((v) => v ?? {});

export const swarmServiceSchema = z.object({
  ID: z.string(),
  Spec: z.object({
    Name: z.string(),
    Labels: labels,
    TaskTemplate: z.object({
      ContainerSpec: z.object({ Image: z.string(), Labels: labels }).optional(),
    }),
  }),
});
export const swarmServiceListSchema = z.array(swarmServiceSchema);

export const swarmTaskSchema = z.object({
  ID: z.string(),
  ServiceID: z.string(),
  NodeID: z.string().optional(),
  DesiredState: z.string().optional(),
  Spec: z.object({ ContainerSpec: z.object({ Image: z.string() }).optional() }),
  Status: z.object({ Timestamp: z.string(), State: z.string() }),
});
export const swarmTaskListSchema = z.array(swarmTaskSchema);

export const swarmNodeListSchema = z.array(
  z.object({
    ID: z.string(),
    Description: z
      .object({ Hostname: z.string().optional(), Platform: z.object({ Architecture: z.string(), OS: z.string() }).optional() })
      .optional(),
  }),
);

export type SwarmService = z.infer<typeof swarmServiceSchema>;
export type SwarmTask = z.infer<typeof swarmTaskSchema>;
