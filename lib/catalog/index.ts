// The built-in catalog: for popular public images, where their release notes
// live (GitHub, GitLab, a changelog template), their endoflife.date product and
// a default policy. Used when a service sets no policy of its own.
// Validated once, at first use; a bad entry is a bug, not input.
import { RE2JS } from "re2js";
import { z } from "zod";
import { normaliseRepositoryKey } from "@/lib/domain/eol";
import { checkForgeReference } from "@/lib/domain/forge-hosts";
import { policySchema, TRACKS, type Policy } from "@/lib/domain/policy";
import catalogJson from "./catalog.json";

const COMPONENT = "[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*";
const REGISTRY = "(?:[a-z0-9]+(?:[.-][a-z0-9]+)*\\.[a-z]{2,}|localhost)(?::\\d{1,5})?";
const IMAGE_KEY = new RegExp(`^${REGISTRY}(?:/${COMPONENT})+$`);

const imageKey = z
  .string()
  .max(255)
  .regex(IMAGE_KEY, { message: "must be a normalised repository key such as docker.io/library/nginx" })
  .refine((key) => normaliseRepositoryKey(key) === key, { message: "must be normalised (docker.io/library/… for official images)" });

const tagFilter = z
  .string()
  .min(1)
  .max(500)
  .refine(
    (pattern) => {
      try {
        RE2JS.compile(pattern);
        return true;
      } catch {
        return false;
      }
    },
    { message: "must be a valid RE2 regular expression" },
  );

export const catalogEntrySchema = z
  .object({
    image: imageKey,
    github: policySchema.shape.github.refine((v) => v === undefined || checkForgeReference("github", v).ok, {
      message: "must be owner/repo",
    }),
    // The catalog cannot know the self-hosted GitLab: gitlab.com projects only.
    gitlab: policySchema.shape.gitlab.refine((v) => v === undefined || checkForgeReference("gitlab", v).ok, {
      message: "must be a gitlab.com/group/project",
    }),
    release_tag_prefix: z.string().min(1).max(100).regex(/^\S+$/, { message: "must not contain spaces" }).optional(),
    changelog: policySchema.shape.changelog,
    eol: z.string().max(100).regex(/^[a-z0-9][a-z0-9._-]*$/, { message: "must be a lower-case endoflife.date product id" }).optional(),
    policy: z.object({ track: z.enum(TRACKS).optional(), tag_filter: tagFilter.optional() }).strict().optional(),
  })
  .strict();

export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

export const catalogSchema = z.array(catalogEntrySchema).superRefine((entries, ctx) => {
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (seen.has(entry.image)) ctx.addIssue({ code: "custom", path: [index, "image"], message: `duplicate image ${entry.image}` });
    seen.add(entry.image);
  });
});

export type Catalog = { entries: readonly CatalogEntry[]; byImage: ReadonlyMap<string, CatalogEntry> };

/** Parse a catalog document; throws naming the first bad entry. */
export function parseCatalog(data: unknown): Catalog {
  const parsed = catalogSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid built-in catalog at ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}`);
  }
  return { entries: parsed.data, byImage: new Map(parsed.data.map((e) => [e.image, e])) };
}

let memo: Catalog | null = null;

/** The built-in catalog, validated on first use. */
export function loadCatalog(): Catalog {
  memo ??= parseCatalog(catalogJson);
  return memo;
}

/** The catalog entry for an image repository (any spelling: `nginx`, `docker.io/library/nginx`), or null. */
export function catalogEntryFor(repositoryKey: string): CatalogEntry | null {
  const key = normaliseRepositoryKey(repositoryKey);
  return key === null ? null : (loadCatalog().byImage.get(key) ?? null);
}

/** The catalog's default policy for an image, in the policy's own shape, or null when the image is not catalogued. */
export function catalogPolicyFor(repositoryKey: string): Policy | null {
  const entry = catalogEntryFor(repositoryKey);
  if (!entry) return null;
  const { image: _image, policy, ...forge } = entry;
  const merged = Object.fromEntries(Object.entries({ ...policy, ...forge }).filter(([, v]) => v !== undefined));
  return policySchema.parse(merged);
}
