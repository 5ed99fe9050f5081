// Runs before routing:
// - unknown API paths and wrong methods get problem+json (Next would answer
//   with an HTML page or an empty 405);
// - every page gets a Content-Security-Policy with a fresh nonce, so the only
//   scripts that run are Next's own (nonced, then trusted by 'strict-dynamic');
// - API answers get a policy that allows nothing at all.
// The other security headers (nosniff, Referrer-Policy, Permissions-Policy,
// frame options) come from next.config.ts for every path, static files too.
import { NextResponse, type NextRequest } from "next/server";
import { matchApiRoute } from "@/lib/api/route-table";
import { problemResponse } from "@/lib/http/problem";
import { apiContentSecurityPolicy, pageContentSecurityPolicy } from "@/lib/http/security-headers";

export function proxy(req: NextRequest) {
  const { pathname } = req.nextUrl;
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    const match = matchApiRoute(pathname, req.method);
    let res: Response;
    if (match.kind === "not_found") res = problemResponse("not_found", `No API route ${pathname}.`);
    else if (match.kind === "method") {
      res = problemResponse("method_not_allowed", `${req.method} is not supported here; use ${match.allowed.join(", ")}.`, {
        headers: { allow: match.allowed.join(", ") },
      });
    } else res = NextResponse.next();
    res.headers.set("content-security-policy", apiContentSecurityPolicy());
    return res;
  }
  if (pathname === "/metrics") {
    const res = NextResponse.next();
    res.headers.set("content-security-policy", apiContentSecurityPolicy());
    return res;
  }
  // Pages: Next reads the nonce from the request's policy and puts it on the
  // scripts it renders (pages render per request; see app/layout.tsx).
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const policy = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  res.headers.set("content-security-policy", policy);
  return res;
}

export const config = {
  matcher: [
    "/api/:path*",
    "/metrics",
    // Pages, not static files, the badge (which sets its own policy) or prefetches.
    {
      source: "/((?!_next/static|_next/image|favicon.ico|badge/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
