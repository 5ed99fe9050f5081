// Wire format of GET /repos/{owner}/{repo}/releases (GitHub REST API),
// limited to the fields Driftwatch reads.
import { z } from "zod";

export const githubReleaseSchema = z.object({
  tag_name: z.string().min(1),
  name: z.string().nullable().optional(),
  published_at: z.string().nullable().optional(),
  html_url: z.url(),
  prerelease: z.boolean().default(false),
  draft: z.boolean().default(false),
});

export const githubReleasesPageSchema = z.array(githubReleaseSchema);

export type GithubRelease = z.infer<typeof githubReleaseSchema>;
