import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { renderMetrics } from "@/lib/services/insights/metrics";

export const GET = handle(ops.getMetrics, async ({ ctx }) => {
  const { text, contentType } = await renderMetrics({ ctx });
  return new Response(text, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
});
