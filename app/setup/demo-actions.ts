"use server";
// "Try the demo": fill a workspace of its own in this server. From first-run
// setup it signs in as the demo's owner; from inside, an admin is told how.
import { redirect } from "next/navigation";
import { AppError } from "@/lib/domain/errors";
import { signIn } from "@/lib/http/auth";
import { DEMO_TICKET_PROVIDER_ID, issueDemoTicket } from "@/lib/http/demo-ticket";
import { requirePageSession } from "@/lib/http/context";
import { getServerServices } from "@/lib/server/services";
import { requireRole } from "@/lib/services/context";
import { createDemoWorkspace, type DemoWorkspace } from "@/lib/services/demo/create-demo-workspace";
import { hasAnyUser } from "@/lib/services/workspaces/has-any-user";

export type DemoState = { status: "idle" | "done" | "error"; message?: string; demo?: DemoWorkspace };

function signInLine(d: DemoWorkspace): string {
  return d.password === null
    ? `sign in as ${d.email} with the password given when it was made (it is left as it was)`
    : `sign in as ${d.email} with the password ${d.password}`;
}

/**
 * From first-run setup: create (or find) the demo and sign in as its owner with a one-time ticket,
 * so an existing demo owner's password (the one `driftwatch demo` printed) stays as it was.
 */
export async function tryDemoFromSetupAction(_prev: DemoState): Promise<DemoState> {
  const services = await getServerServices();
  if (await hasAnyUser(services.db, { besidesDemo: true })) redirect("/signin");
  let demo: DemoWorkspace;
  try {
    demo = await createDemoWorkspace({ ctx: { db: services.db, config: services.config, now: new Date() } });
  } catch (err) {
    if (err instanceof AppError) return { status: "error", message: err.message };
    throw err;
  }
  await signIn(DEMO_TICKET_PROVIDER_ID, { ticket: issueDemoTicket({ userId: demo.userId, email: demo.email }), redirectTo: "/" });
  return { status: "done", demo };
}

/** From inside an instance: an admin makes the demo and is told how to sign in to it. */
export async function tryDemoAction(_prev: DemoState): Promise<DemoState> {
  const { ctx } = await requirePageSession();
  try {
    requireRole(ctx.actor, "admin");
    const demo = await createDemoWorkspace({ ctx: { db: ctx.db, config: ctx.config, now: new Date() } });
    const message = demo.created
      ? `The demo workspace ${demo.workspace} is ready: sign out, then ${signInLine(demo)}.`
      : `The demo workspace ${demo.workspace} exists already: sign out, then ${signInLine(demo)}.`;
    return { status: "done", message, demo };
  } catch (err) {
    if (err instanceof AppError) return { status: "error", message: err.message };
    throw err;
  }
}
