// Auth.js's own routes (with its CSRF token on every POST). A password
// sign-in from an e-mail or address that failed too often is answered here
// with 429 problem+json and Retry-After, before Auth.js runs.
import { handlers } from "@/lib/http/auth";
import { normalizeEmail } from "@/lib/auth/credentials";
import { hasInvalidCallbackUrl } from "@/lib/http/auth-callback";
import { clientAddress } from "@/lib/http/client-address";
import { withBrowserOrigin } from "@/lib/http/oidc";
import { errorToResponse, problemResponse } from "@/lib/http/problem";
import { getServerServices } from "@/lib/server/services";
import { signInRetryAfter } from "@/lib/services/sessions/sign-in";

const badCallback = () => problemResponse("bad_request", "The callback URL is not an http(s) address or a path on this site.");

export async function GET(req: Request): Promise<Response> {
  if (hasInvalidCallbackUrl(req)) return badCallback();
  return handlers.GET(withBrowserOrigin(req) as Parameters<typeof handlers.GET>[0]);
}

export async function POST(req: Request): Promise<Response> {
  if (hasInvalidCallbackUrl(req)) return badCallback();
  if (new URL(req.url).pathname.endsWith("/callback/credentials")) {
    try {
      const form = await req.clone().formData().catch(() => null);
      const email = normalizeEmail(form?.get("email"));
      const { db } = await getServerServices();
      const now = new Date();
      const wait = await signInRetryAfter({ db, now }, { email: email ?? "", ip: clientAddress(req.headers) });
      if (wait > 0) {
        return problemResponse("rate_limited", "Too many failed sign-ins. Wait before trying again.", { headers: { "retry-after": String(wait) } });
      }
    } catch (err) {
      return errorToResponse(err);
    }
  }
  return handlers.POST(withBrowserOrigin(req) as Parameters<typeof handlers.POST>[0]);
}
