// Docker Engine API wire formats (only the fields Driftwatch reads), parsed on arrival.
import { z } from "zod";

const labels = z.record(z.string(), z.string()).nullish().transform((v) => v ?? {});

export const engineInfoSchema = z.object({
  ID: z.string().optional(),
  Name: z.string(),
  OperatingSystem: z.string().optional(),
  Swarm: z
    .object({
      NodeID: z.string().optional(),
      LocalNodeState: z.string().optional(),
      ControlAvailable: z.boolean().optional(),
      Cluster: z.object({ ID: z.string() }).nullish(),
    })
    .optional(),
});

/** `GET /containers/json` */
export const containerSummarySchema = z.object({
  Id: z.string(),
  Names: z.array(z.string()).nullish().transform((v) => v ?? []),
  Image: z.string(),
  ImageID: z.string(),
  State: z.string(),
  Labels: labels,
});
export const containerListSchema = z.array(containerSummarySchema);

const ociPlatform = z.object({
  architecture: z.string(),
  os: z.string(),
  variant: z.string().optional(),
});

/** `GET /containers/{id}/json` */
export const containerInspectSchema = z.object({
  Id: z.string(),
  Created: z.string(),
  Name: z.string(),
  RestartCount: z.number().int().nonnegative().default(0),
  Image: z.string(),
  State: z.object({
    Status: z.string(),
    Running: z.boolean(),
    StartedAt: z.string(),
  }),
  Config: z.object({
    Image: z.string(),
    Labels: labels,
  }),
  // Present with the containerd image store (Engine API 1.48+): the
  // platform-specific manifest the container was created from.
  ImageManifestDescriptor: z
    .object({ mediaType: z.string().optional(), digest: z.string(), platform: ociPlatform.nullish() })
    .nullish(),
});

/** `GET /images/{id}/json` */
export const imageInspectSchema = z.object({
  Id: z.string(),
  RepoTags: z.array(z.string()).nullish().transform((v) => v ?? []),
  RepoDigests: z.array(z.string()).nullish().transform((v) => v ?? []),
  Os: z.string().optional(),
  Architecture: z.string().optional(),
  Variant: z.string().optional(),
});

export type EngineInfo = z.infer<typeof engineInfoSchema>;
export type ContainerSummary = z.infer<typeof containerSummarySchema>;
export type ContainerInspect = z.infer<typeof containerInspectSchema>;
export type ImageInspect = z.infer<typeof imageInspectSchema>;
