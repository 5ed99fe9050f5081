// What the built-in catalog and an image's source label say about a
// repository, in the shape service descriptions need.
import { catalogEntryFor } from "@/lib/catalog";
import { forgeFromSourceLabel } from "@/lib/domain/forge-hosts";

export type CatalogFacts = {
  github?: string;
  gitlab?: string;
  release_tag_prefix?: string;
  changelog?: string;
  eol?: string;
  policy?: Record<string, unknown>;
};

export function catalogFor(repositoryKey: string): CatalogFacts | null {
  return catalogEntryFor(repositoryKey) ?? null;
}

export function forgeFromLabel(label: string, gitlabUrl?: string): { kind: "github" | "gitlab"; repository: string } | null {
  return forgeFromSourceLabel(label, { gitlabUrl });
}
