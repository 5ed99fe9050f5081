// For pages: who is signed in, as an actor in their workspace, or a redirect
// to first-run setup or sign-in. Pages read through services with this actor.
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { WORKSPACE_COOKIE } from "@/lib/auth/workspace-cookie";
import { actorForUser } from "@/lib/services/sessions/authenticate";
import type { RequestCtx } from "@/lib/services/context";
import { driftSettled } from "@/lib/services/drift/evaluate-workspace";
import { hasAnyUser } from "@/lib/services/workspaces/has-any-user";
import { getServerServices } from "./services";

export type PageSession = { ctx: RequestCtx & { actor: Extract<RequestCtx["actor"], { kind: "user" }> }; workspaceName: string };

export async function requirePageSession(): Promise<PageSession> {
  const services = await getServerServices();
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) {
    if (!(await hasAnyUser(services.db))) redirect("/setup");
    redirect("/signin");
  }
  const preferred = (await cookies()).get(WORKSPACE_COOKIE)?.value ?? null;
  const actor = await actorForUser(services.db, userId, preferred);
  if (!actor || actor.kind !== "user") redirect("/signin");
  await driftSettled(actor.workspaceId);
  const ws = await services.db.workspace.findUniqueOrThrow({ where: { id: actor.workspaceId }, select: { name: true } });
  return { ctx: { db: services.db, config: services.config, now: new Date(), actor }, workspaceName: ws.name };
}
