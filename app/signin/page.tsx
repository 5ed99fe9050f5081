import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { signIn } from "@/lib/http/auth";
import { getServerServices } from "@/lib/server/services";
import { hasAnyUser } from "@/lib/services/workspaces/has-any-user";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

async function signInAction(formData: FormData) {
  "use server";
  try {
    await signIn("credentials", { email: formData.get("email"), password: formData.get("password"), redirectTo: "/" });
  } catch (err) {
    if (err instanceof AuthError) {
      const code = (err as AuthError & { code?: string }).code === "rate_limited" ? "rate_limited" : "invalid";
      redirect(`/signin?error=${code}`);
    }
    throw err;
  }
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { db } = await getServerServices();
  if (!(await hasAnyUser(db))) redirect("/setup");
  const { error } = await searchParams;
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
          <label>E-mail <input name="email" type="email" autoComplete="username" required /></label>
          <label>Password <input name="password" type="password" autoComplete="current-password" required /></label>
          <button type="submit" className="primary">Sign in</button>
        </form>
      </div>
    </main>
  );
}
