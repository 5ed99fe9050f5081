import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { signIn } from "@/lib/http/auth";
import { getServerServices } from "@/lib/server/services";
import { hasAnyUser } from "@/lib/services/workspaces/has-any-user";
import { DEMO_EMAIL, DEMO_PASSWORD, DEMO_WORKSPACE } from "@/lib/domain/demo/plan";
import { localPath, signInMessage } from "./messages";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

/** Carries the e-mail of a failed attempt back to the form, off the address bar. */
const EMAIL_COOKIE = "dw-signin-email";

async function signInAction(formData: FormData) {
  "use server";
  const back = localPath(formData.get("callbackUrl"));
  const email = formData.get("email");
  try {
    await signIn("credentials", { email, password: formData.get("password"), redirectTo: back });
  } catch (err) {
    if (err instanceof AuthError) {
      const code = (err as AuthError & { code?: string }).code === "rate_limited" ? "rate_limited" : "invalid";
      if (typeof email === "string") (await cookies()).set(EMAIL_COOKIE, email.slice(0, 320), { httpOnly: true, sameSite: "lax", path: "/signin", maxAge: 300 });
      redirect(`/signin?error=${code}${back === "/" ? "" : `&callbackUrl=${encodeURIComponent(back)}`}`);
    }
    throw err;
  }
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; code?: string; callbackUrl?: string }> }) {
  const { db, config } = await getServerServices();
  if (!(await hasAnyUser(db))) redirect("/setup");
  const { error, code, callbackUrl } = await searchParams;
  const back = localPath(callbackUrl);
  // The server `driftwatch demo` started: its printed sign-in, shown where it is needed.
  const email = error ? ((await cookies()).get(EMAIL_COOKIE)?.value ?? "") : config.demo ? DEMO_EMAIL : "";
  return (
    <main className="narrow">
      <div className="card">
        <h1>Sign in to Driftwatch</h1>
        <p className="muted">See which version of each service runs where.</p>
        {config.demo ? (
          <p className="notice" data-testid="demo-credentials">
            This is the demo that <code>driftwatch demo</code> started: sign in as <strong>{DEMO_EMAIL}</strong> with the password{" "}
            <strong><code>{DEMO_PASSWORD}</code></strong> (workspace {DEMO_WORKSPACE}).
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="alert">
            {signInMessage(error, code)}
          </p>
        ) : null}
        {config.oidc ? (
          <>
            {/* A link, not a form: the provider's sign-in page is another origin, which the page policy's form-action refuses. */}
            <a className="button primary" href={`/signin/sso${back === "/" ? "" : `?callbackUrl=${encodeURIComponent(back)}`}`}>
              Sign in with {config.oidc.name}
            </a>
            <p className="muted">Or, with a password:</p>
          </>
        ) : null}
        <form action={signInAction} className="stack">
          <input type="hidden" name="callbackUrl" value={back} />
          <label>E-mail <input name="email" type="email" autoComplete="username" required defaultValue={email} /></label>
          <label>Password <input name="password" type="password" autoComplete="current-password" required /></label>
          <button type="submit" className="primary">Sign in</button>
        </form>
      </div>
    </main>
  );
}
