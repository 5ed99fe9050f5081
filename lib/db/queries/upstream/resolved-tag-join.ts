// The release a run's digest was resolved to (a moving tag's match), as `res.tag`:
// the workspace's own resolution first, else the shared one. One fragment for
// every query over runs that needs it; the plan test covers each user.
import { Prisma } from "@/lib/db/client";

export const RESOLVED_TAG_JOIN = Prisma.sql`LEFT JOIN LATERAL (
      SELECT d.tag FROM upstream_repositories u
      JOIN digest_resolutions d ON d.repository_id = u.id
      WHERE u.key = r.repository AND (u.owner_workspace_id IS NULL OR u.owner_workspace_id = r.workspace_id)
        AND d.tag IS NOT NULL AND (d.digest = r.digest OR d.digest = r.platform_digest)
      ORDER BY u.owner_workspace_id NULLS LAST
      LIMIT 1
    ) res ON true`;
