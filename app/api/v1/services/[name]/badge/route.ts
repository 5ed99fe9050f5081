import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { getBadgeAddress } from "@/lib/services/badges/get-address";

export const GET = handle(ops.getBadgeAddress, async ({ ctx, params, query }) => {
  const { url, markdown } = await getBadgeAddress({ ctx, input: { name: params.name, environment: query.env ?? null } });
  return { url, markdown };
});
