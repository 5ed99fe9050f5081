import { z } from "zod";
import { nameParams } from "../schemas/common";
import { defineOperation } from "../operation";

export const badgeAddressSchema = z
  .object({
    url: z.string().meta({ description: "`{base_url}/badge/<key id>/<service>.svg?env=&sig=`; needs no sign-in" }),
    markdown: z.string().meta({ description: "An image link wrapping a link to the service page" }),
  })
  .meta({ id: "BadgeAddress" });

export const badgesOps = {
  getBadgeAddress: defineOperation({
    id: "getBadgeAddress", method: "GET", path: "/api/v1/services/{name}/badge", summary: "A signed badge address", tags: ["services"], auth: "member",
    description:
      "The badge shows the running version and a state: up to date (green), behind (amber), needs attention (red). Without `env` it covers all environments (the most severe state). The signature binds the address to the service and environment; `driftwatch badges reset` invalidates every address handed out.",
    params: nameParams,
    query: z.object({ env: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,99}$/).optional().meta({ description: "One environment; omit for all" }) }),
    responses: { 200: { description: "The address and a Markdown snippet", schema: badgeAddressSchema } },
  }),
};
