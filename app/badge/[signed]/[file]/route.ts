// GET /badge/<key id>/<service>.svg?env=&sig=: a public, signed badge. Every
// failure (key id, signature, service) is the same plain 404.
import { NAME_RE } from "@/lib/api/schemas/common";
import { log } from "@/lib/log";
import { renderBadgeSvg } from "@/lib/render/badge";
import { getServerServices } from "@/lib/server/services";
import { loadSignedBadge } from "@/lib/services/badges/load-signed";

export const dynamic = "force-dynamic";

const KEY_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const SIG_RE = /^[A-Za-z0-9_-]{1,128}$/;

function notFound(): Response {
  return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

export async function GET(req: Request, { params }: { params: Promise<{ signed: string; file: string }> }): Promise<Response> {
  const { signed, file } = await params;
  const url = new URL(req.url);
  const service = file.endsWith(".svg") ? file.slice(0, -4) : "";
  const environment = url.searchParams.get("env") || null;
  const sig = url.searchParams.get("sig") ?? "";
  if (!KEY_ID_RE.test(signed) || !NAME_RE.test(service) || !SIG_RE.test(sig) || (environment !== null && !NAME_RE.test(environment))) return notFound();
  try {
    const services = await getServerServices();
    const badge = await loadSignedBadge({ ctx: { db: services.db, config: services.config, now: new Date() }, input: { keyId: signed, service, environment, sig } });
    if (!badge) return notFound();
    const svg = await renderBadgeSvg({ label: badge.label, version: badge.version, state: badge.state });
    return new Response(svg, {
      status: 200,
      headers: {
        "content-type": "image/svg+xml; charset=utf-8",
        // Within five minutes of a change (spec "Limits"), READMEs and proxies show the new state.
        "cache-control": "public, max-age=300",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      },
    });
  } catch (err) {
    log.error("badge failed", { error: String(err) });
    return new Response("Badge unavailable\n", { status: 503, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "retry-after": "60" } });
  }
}
