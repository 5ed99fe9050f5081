// For pages: who is signed in, as an actor in their workspace, or a redirect
// to first-run setup or sign-in. Pages read through services with this actor.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { WORKSPACE_COOKIE } from "@/lib/auth/workspace-cookie";
import { actorForUser } from "@/lib/services/authenticate";
import type { Ctx } from "@/lib/services/context";
import { driftSettled } from "@/lib/services/drift/evaluate-workspace";
import { hasAnyUser } from "@/lib/services/setup-workspace";
import { getServerServices } from "./services";

export type PageSession = { ctx: Ctx & { actor: Extract<Ctx["actor"], { kind: "user" }> }; workspaceName: string };

/** The sign-in page, told to come back to the page asked for (set by proxy.ts). */
async function signInAddress(): Promise<string> {
  const asked = (await headers()).get("x-driftwatch-path");
  return asked && asked !== "/" && asked.startsWith("/") ? `/signin?callbackUrl=${encodeURIComponent(asked)}` : "/signin";
}

export async function requirePageSession(): Promise<PageSession> {
  const services = await getServerServices();
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) {
    if (!(await hasAnyUser(services.db))) redirect("/setup");
    redirect(await signInAddress());
  }
  const preferred = (await cookies()).get(WORKSPACE_COOKIE)?.value ?? null;
  const actor = await actorForUser(services.db, userId, preferred);
  if (!actor || actor.kind !== "user") redirect(await signInAddress());
  await driftSettled(actor.workspaceId);
  const ws = await services.db.workspace.findUniqueOrThrow({ where: { id: actor.workspaceId }, select: { name: true } });
  return { ctx: { db: services.db, config: services.config, now: services.now, actor }, workspaceName: ws.name };
}
