// Kubernetes API wire formats (core/v1 Pod, Node, Secret; apps/v1 ReplicaSet), only the fields read.
import { z } from "zod";

const stringMap = z.record(z.string(), z.string()).nullish().transform((v) => v ?? {});
const list = <T extends z.ZodType>(item: T) => z.array(item).nullish().transform((v) => v ?? []);

export const ownerReferenceSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string(),
  name: z.string(),
  uid: z.string().optional(),
  controller: z.boolean().optional(),
});

export const objectMetaSchema = z.object({
  name: z.string(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  labels: stringMap,
  annotations: stringMap,
  ownerReferences: list(ownerReferenceSchema),
  deletionTimestamp: z.string().nullish(),
});

const containerSchema = z.object({
  name: z.string(),
  image: z.string().optional(),
  // `Always` on an init container makes it a native sidecar (Kubernetes 1.29+).
  restartPolicy: z.string().optional(),
});

const containerStateSchema = z
  .object({
    running: z.object({ startedAt: z.string().nullish() }).nullish(),
    waiting: z.object({ reason: z.string().optional() }).nullish(),
    terminated: z.object({ startedAt: z.string().nullish(), finishedAt: z.string().nullish(), exitCode: z.number().optional(), reason: z.string().optional() }).nullish(),
  })
  .nullish()
  .transform((v) => v ?? {});

export const containerStatusSchema = z.object({
  name: z.string(),
  image: z.string(),
  imageID: z.string().default(""),
  ready: z.boolean().default(false),
  restartCount: z.number().int().nonnegative().default(0),
  state: containerStateSchema,
  lastState: containerStateSchema,
});

export const podSchema = z.object({
  metadata: objectMetaSchema,
  spec: z.object({
    nodeName: z.string().optional(),
    containers: z.array(containerSchema),
    initContainers: list(containerSchema),
    imagePullSecrets: list(z.object({ name: z.string() })),
  }),
  status: z
    .object({
      phase: z.string().optional(),
      startTime: z.string().nullish(),
      conditions: list(z.object({ type: z.string(), status: z.string() })),
      containerStatuses: list(containerStatusSchema),
      initContainerStatuses: list(containerStatusSchema),
    })
    .default({ conditions: [], containerStatuses: [], initContainerStatuses: [] }),
});

const listSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    metadata: z.object({ continue: z.string().nullish(), resourceVersion: z.string().optional() }).default({}),
    items: z.array(item).nullish().transform((v) => v ?? []),
  });

export const podListSchema = listSchema(podSchema);
export const replicaSetListSchema = listSchema(z.object({ metadata: objectMetaSchema }));
export const nodeListSchema = listSchema(
  z.object({
    metadata: z.object({ name: z.string() }),
    status: z.object({ nodeInfo: z.object({ operatingSystem: z.string(), architecture: z.string() }).optional() }).default({}),
  }),
);
export const secretSchema = z.object({
  type: z.string().optional(),
  data: stringMap,
});

/** Helm release records: listed with their data (the release itself). */
export const secretListSchema = listSchema(
  z.object({
    metadata: objectMetaSchema,
    type: z.string().optional(),
    data: stringMap,
  }),
);

export type Pod = z.infer<typeof podSchema>;
export type Secret = z.infer<typeof secretListSchema>["items"][number];
export type ContainerStatus = z.infer<typeof containerStatusSchema>;
export type OwnerReference = z.infer<typeof ownerReferenceSchema>;
export type ReplicaSetMeta = z.infer<typeof replicaSetListSchema>["items"][number];
