// Wire format of GET /api/v4/projects/{id}/releases (GitLab REST API),
// limited to the fields Driftwatch reads.
import { z } from "zod";

export const gitlabReleaseSchema = z.object({
  tag_name: z.string().min(1),
  name: z.string().nullable().optional(),
  released_at: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
  upcoming_release: z.boolean().optional(),
  _links: z.object({ self: z.url().optional() }).partial().optional(),
});

export const gitlabReleasesPageSchema = z.array(gitlabReleaseSchema);

export type GitlabRelease = z.infer<typeof gitlabReleaseSchema>;
