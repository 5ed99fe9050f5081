// Auth.js treats a callback URL it cannot parse (the `callbackUrl` query
// parameter or its callback-url cookie) as a server configuration error and
// answers 500. It is the client's mistake: the auth route answers 400 instead.
const COOKIE_NAMES = new Set(["authjs.callback-url", "__Secure-authjs.callback-url"]);

/** Auth.js's own rule: an http(s) URL, or a path on this origin. */
function isHttpUrl(value: string, origin: string): boolean {
  try {
    return /^https?:/.test(new URL(value, value.startsWith("/") ? origin : undefined).protocol);
  } catch {
    return false;
  }
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function hasInvalidCallbackUrl(req: Request): boolean {
  const url = new URL(req.url);
  const candidates: string[] = [];
  const param = url.searchParams.get("callbackUrl");
  if (param) candidates.push(param);
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && COOKIE_NAMES.has(part.slice(0, eq).trim())) {
      const value = decoded(part.slice(eq + 1).trim());
      if (value) candidates.push(value);
    }
  }
  return candidates.some((c) => !isHttpUrl(c, url.origin));
}
