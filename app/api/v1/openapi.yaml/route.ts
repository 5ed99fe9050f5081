import { ops } from "@/lib/api/operations";
import { openApiYaml } from "@/lib/api/openapi";
import { handle } from "@/lib/http/route";

export const GET = handle(ops.openapi, async () =>
  new Response(openApiYaml(), { headers: { "content-type": "application/yaml; charset=utf-8", "cache-control": "public, max-age=300" } }),
);
