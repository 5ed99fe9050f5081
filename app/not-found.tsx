// A page that does not exist (or a service that is not there): said inside the
// app's own frame when someone is signed in, so the navigation stays at hand.
import Link from "next/link";
import { auth } from "@/lib/http/auth";
import { AppShell } from "@/components/app-shell";
import { requirePageSession } from "@/lib/http/context";

// The root layout's title template does not reach this file beside it.
export const metadata = { title: { absolute: "Not found · Driftwatch" } };

function Body() {
  return (
    <div className="card empty">
      <h1>Page not found</h1>
      <p className="muted">There is nothing at this address. It may have been mistyped, or the service or page it named is gone.</p>
      <p><Link href="/">Back to the matrix</Link> · <Link href="/updates">Updates</Link></p>
    </div>
  );
}

export default async function NotFound() {
  const session = await auth();
  if (!session?.user?.id) {
    return <main className="narrow" id="main"><Body /></main>;
  }
  const { ctx, workspaceName } = await requirePageSession();
  return (
    <AppShell workspace={workspaceName} email={ctx.actor.email}>
      <Body />
    </AppShell>
  );
}
