// Auth.js for browser sessions: e-mail and password, JWT sessions.
// API tokens and agent keys are handled by lib/services/authenticate.ts.
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { credentialsSchema } from "@/lib/auth/credentials";
import { clientAddress } from "./client-address";
import { log } from "@/lib/log";
import { getServerServices } from "@/lib/server/services";
import { signInWithPassword } from "@/lib/services/sessions/sign-in";

class TooManyAttempts extends CredentialsSignin {
  override code = "rate_limited";
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  trustHost: true,
  session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
  pages: { signIn: "/signin" },
  // A wrong password is an answer, not an error: keep stack traces out of the log.
  logger: {
    error(error) {
      // Names are minified in the production build; Auth.js errors carry a stable `type`.
      const type = (error as Error & { type?: string }).type;
      if (type === "CredentialsSignin" || error instanceof TooManyAttempts) return;
      // A request without Auth.js's CSRF token is refused: an attempt, not a fault.
      if (type === "MissingCSRF") return log.warn(`auth: ${type}`);
      log.error(`auth: ${error.name}: ${error.message}`);
    },
    warn(code) {
      log.warn(`auth: ${code}`);
    },
    debug() {},
  },
  providers: [
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
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
});
