// Runs before routing: unknown API paths and wrong methods get problem+json
// (Next would answer with an HTML page or an empty 405).
import { NextResponse, type NextRequest } from "next/server";
import { matchApiRoute } from "@/lib/api/route-table";
import { problemResponse } from "@/lib/http/problem";

export function proxy(req: NextRequest) {
  const match = matchApiRoute(req.nextUrl.pathname, req.method);
  if (match.kind === "not_found") return problemResponse("not_found", `No API route ${req.nextUrl.pathname}.`);
  if (match.kind === "method") {
    return problemResponse("method_not_allowed", `${req.method} is not supported here; use ${match.allowed.join(", ")}.`, {
      headers: { allow: match.allowed.join(", ") },
    });
  }
  return NextResponse.next();
}

export const config = { matcher: ["/api/:path*"] };
