// The Content-Security-Policy values proxy.ts sets per request. The fixed
// security headers (nosniff, Referrer-Policy, …) are in next.config.ts.

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
