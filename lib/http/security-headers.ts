// Security headers. The fixed ones go on every response (next.config.ts for
// what Next.js serves, lib/http/server.ts for what the server answers itself);
// the page policy carries a per-request nonce (proxy.ts); API answers get a
// policy that allows nothing (lib/http/server.ts).

export const FIXED_SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** A page's policy: scripts only with this request's nonce (and what they load). */
export function pageContentSecurityPolicy(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': Next's nonced bootstrap loads its chunks; 'self' and
    // host lists are then ignored, so an injected <script src> cannot run.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // React style attributes and the <style> inside server-drawn SVG charts.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** JSON, text and problem answers are never documents: allow nothing. */
export function apiContentSecurityPolicy(): string {
  return "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
}
