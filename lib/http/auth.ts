// Auth.js for browser sessions: e-mail and password, and single sign-on with
// an OpenID Connect provider when one is configured (./oidc.ts); JWT sessions.
// API tokens and agent keys are handled by lib/services/authenticate.ts.
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { credentialsSchema } from "@/lib/auth/credentials";
import { clientAddress } from "./client-address";
import { log } from "@/lib/log";
import { getServerServices } from "@/lib/server/services";
import { signInWithPassword } from "@/lib/services/sessions/sign-in";
import { signInWithOidc } from "@/lib/services/sessions/sign-in-with-oidc";
import { getConfig, type OidcConfig } from "@/lib/config";
import { OIDC_PROVIDER_ID, oidcProvider, SsoRefused } from "./oidc";
import { DEMO_TICKET_PROVIDER_ID, redeemDemoTicket } from "./demo-ticket";

class TooManyAttempts extends CredentialsSignin {
  override code = "rate_limited";
}

// A function, so the configuration is read by the running server, not when the build loads this module.
export const { handlers, auth, signIn, signOut } = NextAuth(() => authConfig(getConfig().oidc));

function authConfig(oidc: OidcConfig | undefined): NextAuthConfig {
  return {
    trustHost: true,
    session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
    // A failed single sign-on comes back to the sign-in page, which says why.
    pages: { signIn: "/signin", error: "/signin" },
    // A wrong password is an answer, not an error: keep stack traces out of the log.
    logger: {
      error(error) {
        // Names are minified in the production build; Auth.js errors carry a stable `type`.
        const type = (error as Error & { type?: string }).type;
        if (type === "CredentialsSignin" || error instanceof TooManyAttempts) return;
        // A request without Auth.js's CSRF token is refused: an attempt, not a fault.
        if (type === "MissingCSRF") return log.warn(`auth: ${type}`);
        // Auth.js wraps the failure (a provider that cannot be reached, an answer it refused) in `cause.err`.
        const cause = (error.cause as { err?: unknown } | undefined)?.err;
        log.error(`auth: ${type ?? error.name}: ${cause instanceof Error ? cause.message : error.message}`);
      },
      warn(code) {
        log.warn(`auth: ${code}`);
      },
      debug() {},
    },
    providers: [
      ...(oidc ? [oidcProvider(oidc)] : []),
      Credentials({
        credentials: { email: { label: "E-mail" }, password: { label: "Password", type: "password" } },
        async authorize(raw, request) {
          const parsed = credentialsSchema.safeParse(raw);
          if (!parsed.success) return null;
          const { db } = await getServerServices();
          const now = new Date();
          const ip = clientAddress(request?.headers);
          const result = await signInWithPassword({ db, now }, { ...parsed.data, ip });
          if (result.kind === "rate_limited") throw new TooManyAttempts();
          if (result.kind !== "ok") return null;
          return { id: result.user.id, email: result.user.email, name: result.user.name ?? result.user.email };
        },
      }),
      // "Try the demo": the server's own action hands over a one-time ticket for the demo's owner.
      Credentials({
        id: DEMO_TICKET_PROVIDER_ID,
        credentials: { ticket: {} },
        authorize(raw) {
          const user = redeemDemoTicket((raw as { ticket?: unknown } | undefined)?.ticket);
          return user ? { id: user.userId, email: user.email, name: user.email } : null;
        },
      }),
    ],
    callbacks: {
      async signIn({ user, account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        const { db } = await getServerServices();
        const result = await signInWithOidc({ ctx: { db, now: new Date(), oidc: oidc! }, input: profile });
        if (result.kind === "refused") {
          log.warn(`auth: single sign-on refused (${result.reason})`);
          throw new SsoRefused(result.reason);
        }
        // The session names our user, not the provider's random id for it.
        user.id = result.user.id;
        user.email = result.user.email;
        user.name = result.user.name ?? result.user.email;
        return true;
      },
      jwt({ token, user }) {
        if (user?.id) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
  };
}
