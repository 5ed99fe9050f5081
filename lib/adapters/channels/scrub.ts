// Last line before an error message leaves an adapter: remove every secret
// the adapter knows of (and their URL-encoded forms), then the known shapes.
import { redact } from "@/lib/log";

export function scrubSecrets(message: string, secrets: ReadonlyArray<string | undefined | null>): string {
  let out = message;
  const known = secrets
    .filter((s): s is string => typeof s === "string" && s.length >= 4)
    .flatMap((s) => [s, encodeURIComponent(s)])
    .sort((a, b) => b.length - a.length);
  for (const secret of known) out = out.split(secret).join("***");
  return redact(out);
}

/** Everything in a URL that may be a secret: itself, its path, query values and password. */
export function urlSecrets(raw: string): string[] {
  try {
    const url = new URL(raw);
    const path = url.pathname.length > 1 ? url.pathname : undefined;
    let password = url.password;
    try {
      password = decodeURIComponent(password);
    } catch {
      // keep the encoded form
    }
    return [raw, url.href, path, url.password || undefined, password || undefined, ...url.searchParams.values()].filter(
      (s): s is string => typeof s === "string",
    );
  } catch {
    return [raw];
  }
}

/** The password in an address, as written and decoded: for addresses whose other parts are no secret. */
export function urlPasswords(raw: string): string[] {
  try {
    const { password } = new URL(raw);
    if (!password) return [];
    try {
      return [password, decodeURIComponent(password)];
    } catch {
      return [password];
    }
  } catch {
    return [];
  }
}
