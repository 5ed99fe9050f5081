// First run: create the first workspace and its owner, then sign in.
import { redirect } from "next/navigation";
import { DemoOffer } from "@/components/demo/demo-offer";
import { signIn } from "@/lib/http/auth";
import { AppError } from "@/lib/domain/errors";
import { getServerServices } from "@/lib/server/services";
import { hasAnyUser } from "@/lib/services/workspaces/has-any-user";
import { setupWorkspace } from "@/lib/services/workspaces/setup";
import { DockerHostSetupStep, watchDockerHostAfterSetup } from "./docker-host-step";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set up" };

async function setupAction(formData: FormData) {
  "use server";
  const { db } = await getServerServices();
  // Only while nobody but the demo's owner exists: afterwards owners add people from inside.
  if (await hasAnyUser(db, { besidesDemo: true })) redirect("/signin");
  const input = { workspace: formData.get("workspace"), email: formData.get("email"), password: formData.get("password") };
  let created: Awaited<ReturnType<typeof setupWorkspace>>;
  try {
    created = await setupWorkspace({ ctx: { db }, input: input });
  } catch (err) {
    if (err instanceof AppError) redirect(`/setup?error=${encodeURIComponent(err.message)}`);
    throw err;
  }
  const email = String(input.email).trim().toLowerCase();
  const next = await watchDockerHostAfterSetup(formData, { workspaceId: created.workspaceId, userId: created.userId, email });
  await signIn("credentials", { email, password: input.password, redirectTo: next ?? "/" });
}

export default async function SetupPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { db } = await getServerServices();
  if (await hasAnyUser(db, { besidesDemo: true })) redirect("/signin");
  const { error } = await searchParams;
  return (
    <main className="narrow">
      <div className="card">
        <h1>Welcome to Driftwatch</h1>
        <p className="muted">Create your workspace and its owner account. You can invite others and add API tokens afterwards.</p>
        {error ? <p role="alert" className="alert">{error}</p> : null}
        <form action={setupAction} className="stack">
          <label>Workspace name <span className="hint" id="setup-workspace-hint">letters, digits and <code>. _ : @ + -</code>, starting with a letter or digit; no spaces</span>
            <input name="workspace" required pattern="[A-Za-z0-9][A-Za-z0-9._:@+\-]{0,199}" title="Letters, digits and . _ : @ + -, starting with a letter or digit; no spaces" aria-describedby="setup-workspace-hint" placeholder="acme" />
          </label>
          <label>Your e-mail <input name="email" type="email" autoComplete="username" required /></label>
          <label>Password <span className="hint">at least 8 characters</span><input name="password" type="password" autoComplete="new-password" minLength={8} required /></label>
          <DockerHostSetupStep />
          <button type="submit" className="primary">Create workspace</button>
        </form>
        <DemoOffer from="setup" />
        <p className="muted small-text">Or, on a data directory of its own: <code>npx driftwatch demo</code>.</p>
      </div>
    </main>
  );
}
