// Runs before routing pages: every page gets a Content-Security-Policy with a
// fresh nonce, so the only scripts that run are Next's own (nonced, then
// trusted by 'strict-dynamic'). API paths never come here: the server answers
// unknown API paths and wrong methods with problem+json and gives API answers
// a policy that allows nothing (lib/http/server.ts), before Next.js and
// without a proxy round on every API request. The other security headers
// come from next.config.ts for every path, static files too.
import { NextResponse, type NextRequest } from "next/server";
import { pageContentSecurityPolicy } from "@/lib/http/security-headers";

export function proxy(req: NextRequest) {
  // Pages: Next reads the nonce from the request's policy and puts it on the
  // scripts it renders (pages render per request; see app/layout.tsx).
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const policy = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  // The page asked for, so a sign-in can return to it (lib/server/session.ts).
  requestHeaders.set("x-driftwatch-path", req.nextUrl.pathname + req.nextUrl.search);
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  res.headers.set("content-security-policy", policy);
  return res;
}

export const config = {
  matcher: [
    // Pages, not the API, /metrics, static files, the badge, the calendar and the admission webhook (which set their own policy) or prefetches.
    {
      source: "/((?!api/|api$|metrics$|_next/static|_next/image|favicon.ico|badge/|calendar/|admission/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
