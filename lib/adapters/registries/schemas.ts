// Wire formats of the OCI distribution API, its token service and Docker
// Hub's tags API, parsed on arrival. Unknown fields are ignored; missing
// required ones make the body malformed (registry_unavailable, never a crash).
import { z } from "zod";

const digest = z.string().regex(/^(?:sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/, "not a digest");

export const MEDIA_TYPES = {
  ociIndex: "application/vnd.oci.image.index.v1+json",
  ociManifest: "application/vnd.oci.image.manifest.v1+json",
  dockerManifestList: "application/vnd.docker.distribution.manifest.list.v2+json",
  dockerManifest: "application/vnd.docker.distribution.manifest.v2+json",
} as const;

export const INDEX_MEDIA_TYPES: ReadonlySet<string> = new Set([MEDIA_TYPES.ociIndex, MEDIA_TYPES.dockerManifestList]);
export const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set([MEDIA_TYPES.ociManifest, MEDIA_TYPES.dockerManifest]);

/** Every manifest type we understand: without them a registry may 404 or hand back a converted digest. */
export const MANIFEST_ACCEPT = Object.values(MEDIA_TYPES).join(", ");

/** `GET /v2/<name>/tags/list`; some registries send `tags: null` for an empty repository. */
export const tagsListSchema = z.object({
  name: z.string().optional(),
  tags: z.array(z.string()).nullable().optional(),
});

const platformSchema = z.object({
  os: z.string(),
  architecture: z.string(),
  variant: z.string().optional(),
});

const descriptorSchema = z.object({
  mediaType: z.string().optional(),
  digest,
  size: z.number().optional(),
  platform: platformSchema.optional(),
});

/** OCI image index or Docker manifest list. */
export const indexSchema = z.object({
  schemaVersion: z.literal(2),
  mediaType: z.string().optional(),
  manifests: z.array(descriptorSchema),
});

/** OCI image manifest or Docker image manifest v2. */
export const imageManifestSchema = z.object({
  schemaVersion: z.literal(2),
  mediaType: z.string().optional(),
  config: descriptorSchema,
  layers: z.array(descriptorSchema).optional(),
});

/** The image config blob; only the labels matter here. */
export const imageConfigSchema = z.object({
  config: z
    .object({ Labels: z.record(z.string(), z.string()).nullable().optional() })
    .nullable()
    .optional(),
});

/** Token service answer (distribution token spec): `token` and/or `access_token`. */
export const tokenResponseSchema = z
  .object({
    token: z.string().min(1).optional(),
    access_token: z.string().min(1).optional(),
    expires_in: z.number().positive().optional(),
    issued_at: z.string().optional(),
  })
  .refine((t) => t.token !== undefined || t.access_token !== undefined, "neither token nor access_token");

/** Registry error body: `{"errors":[{"code":"MANIFEST_UNKNOWN","message":"…"}]}`. */
export const registryErrorSchema = z.object({
  errors: z.array(z.object({ code: z.string(), message: z.string().optional() })),
});

const hubImageSchema = z.object({
  architecture: z.string(),
  os: z.string(),
  variant: z.string().nullable().optional(),
  digest: digest.nullable().optional(),
});

const hubTagSchema = z.object({
  name: z.string(),
  digest: digest.nullable().optional(),
  media_type: z.string().nullable().optional(),
  last_updated: z.string().nullable().optional(),
  tag_last_pushed: z.string().nullable().optional(),
  images: z.array(hubImageSchema).nullable().optional(),
});

/** `GET hub.docker.com/v2/repositories/<ns>/<repo>/tags?page_size=100`. */
export const hubTagsPageSchema = z.object({
  count: z.number().optional(),
  next: z.string().nullable().optional(),
  results: z.array(hubTagSchema),
});
