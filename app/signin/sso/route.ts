// Starts single sign-on: Auth.js sets its PKCE, state and nonce cookies and
// sends the browser to the provider. A GET, so a plain link starts it.
import { signIn } from "@/lib/http/auth";
import { OIDC_PROVIDER_ID } from "@/lib/http/oidc";
import { log } from "@/lib/log";
import { getServerServices } from "@/lib/server/services";
import { localPath } from "../messages";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const { config } = await getServerServices();
  const url = new URL(request.url);
  const back = localPath(url.searchParams.get("callbackUrl"));
  if (!config.oidc) return redirectTo("/signin");
  try {
    return redirectTo(await signIn(OIDC_PROVIDER_ID, { redirect: false, redirectTo: back }));
  } catch (err) {
    log.warn(`auth: single sign-on could not start: ${(err as Error).message}`);
    return redirectTo(`/signin?error=sso_unavailable${back === "/" ? "" : `&callbackUrl=${encodeURIComponent(back)}`}`);
  }
}

/** A relative Location, so the browser stays on the address it used. */
function redirectTo(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}
