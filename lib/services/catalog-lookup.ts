// The seam between services and the built-in catalog and forge-label parsing.
export type CatalogFacts = {
  github?: string;
  gitlab?: string;
  release_tag_prefix?: string;
  changelog?: string;
  eol?: string;
  policy?: Record<string, unknown>;
};

export function catalogFor(_repositoryKey: string): CatalogFacts | null {
  return null;
}

export function forgeFromLabel(_label: string, _gitlabUrl?: string): { kind: "github" | "gitlab"; repository: string } | null {
  return null;
}
