// What the sign-in page says after a failed attempt, and where it may send
// the person afterwards.

/** Only a path on this site: an absolute or protocol-relative address would make sign-in an open redirect. */
export function localPath(raw: unknown): string {
  if (typeof raw !== "string" || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return "/";
  try {
    const url = new URL(raw, "http://driftwatch.invalid");
    return url.origin === "http://driftwatch.invalid" && !url.pathname.startsWith("/signin") ? url.pathname + url.search : "/";
  } catch {
    return "/";
  }
}

// Single sign-on refusals, by the code lib/http/oidc.ts puts in the address.
const SSO: Record<string, string> = {
  sso_issuer: "Single sign-on refused: the identity provider's answer came from another issuer than the one this server trusts.",
  sso_audience: "Single sign-on refused: the identity provider's answer was meant for another application.",
  sso_signature: "Single sign-on refused: the identity provider's answer is not signed with its published keys.",
  sso_expired: "Single sign-on refused: the identity provider's answer has expired. Check the server's clock, then try again.",
  sso_token: "Single sign-on refused: the identity provider's answer could not be verified.",
  no_email: "Single sign-on refused: the identity provider did not give an e-mail address for you.",
  email_taken: "An account with your e-mail address already exists, and the identity provider has not verified that address. Sign in with your password.",
  no_workspace: "Your account is not known here. Ask an administrator to add you to a workspace.",
  workspace_missing: "Single sign-on cannot add you: the workspace it is set to add people to does not exist. Tell an administrator.",
  no_membership: "You are not a member of any workspace any more. Ask an administrator to add you.",
};

/** `error` and `code` come from our sign-in action or from Auth.js's redirect after a failed single sign-on. */
export function signInMessage(error: string, code: string | undefined): string {
  if (error === "rate_limited") return "Too many attempts. Wait a few minutes and try again.";
  if (error === "invalid") return "That e-mail and password do not match.";
  if (error === "CredentialsSignin" && code && Object.hasOwn(SSO, code)) return SSO[code]!;
  if (error === "sso_unavailable" || error === "Configuration") return "Single sign-on is unavailable: the identity provider could not be reached or answered unexpectedly. The server's log says why.";
  if (error === "OAuthCallbackError" || error === "AccessDenied") return "The identity provider did not sign you in. Try again.";
  return "Sign-in failed. Try again.";
}
