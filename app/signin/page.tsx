import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { signIn } from "@/lib/http/auth";
import { getServerServices } from "@/lib/server/services";
import { hasAnyUser } from "@/lib/services/workspaces/has-any-user";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

/** Carries the e-mail of a failed attempt back to the form, off the address bar. */
const EMAIL_COOKIE = "dw-signin-email";

/** Only a path on this site: an absolute or protocol-relative address would make sign-in an open redirect. */
function localPath(raw: unknown): string {
  if (typeof raw !== "string" || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return "/";
  try {
    const url = new URL(raw, "http://driftwatch.invalid");
    return url.origin === "http://driftwatch.invalid" && !url.pathname.startsWith("/signin") ? url.pathname + url.search : "/";
  } catch {
    return "/";
  }
}

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

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; callbackUrl?: string }> }) {
  const { db } = await getServerServices();
  if (!(await hasAnyUser(db))) redirect("/setup");
  const { error, callbackUrl } = await searchParams;
  const back = localPath(callbackUrl);
  const email = error ? ((await cookies()).get(EMAIL_COOKIE)?.value ?? "") : "";
  return (
    <main className="narrow">
      <div className="card">
        <h1>Sign in to Driftwatch</h1>
        <p className="muted">See which version of each service runs where.</p>
        {error ? (
          <p role="alert" className="alert">
            {error === "rate_limited" ? "Too many attempts. Wait a few minutes and try again." : "That e-mail and password do not match."}
          </p>
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
