// Who is calling and the context a use case runs in, built one way for API
// routes, the MCP endpoint and pages: a bearer credential or the signed-in
// session names an actor; buildCtx hands it the process's shared handles.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import type { AuthLevel } from "@/lib/api/operation";
import { bearerToken } from "@/lib/auth/secrets";
import { WORKSPACE_COOKIE } from "@/lib/auth/workspace-cookie";
import { AppError } from "@/lib/domain/errors";
import { getWorkspaceName } from "@/lib/db/queries/workspaces/get-workspace-name";
import { getServerServices, type ServerServices } from "@/lib/server/services";
import { actorForUser, authenticateBearerWithSnapshot } from "@/lib/services/sessions/authenticate";
import { requireRole, type Actor, type RequestCtx } from "@/lib/services/context";
import { driftSettled } from "@/lib/services/drift/evaluate-workspace";
import { hasAnyUser } from "@/lib/services/workspaces/has-any-user";
import { auth } from "./auth";

/** An actor, and the transaction snapshot read with a bearer credential (see RequestCtx.snapshot). */
export type Caller<A extends Actor = Actor> = { actor: A; snapshot?: string | null };

/**
 * A read first waits for the drift evaluation a report just queued in the caller's workspace, so it
 * sees that report's drift; having waited, the snapshot read with the credential is old, so caches
 * ask again. A write's own changes come after that snapshot too: only reads use it.
 */
export async function buildCtx<A extends Actor>(services: ServerServices, caller: Caller<A>, opts: { read: boolean; now: Date }): Promise<RequestCtx & { actor: A }> {
  const { actor, snapshot } = caller;
  const waited = opts.read && actor.workspaceId !== null && (await driftSettled(actor.workspaceId));
  return { db: services.db, config: services.config, now: opts.now, actor, ...(opts.read && !waited && snapshot !== undefined ? { snapshot } : {}) };
}

/** The signed-in user's actor in the workspace their cookie prefers (or their first); null without a membership. */
async function sessionActor(services: ServerServices, userId: string): Promise<Actor | null> {
  const preferred = (await cookies()).get(WORKSPACE_COOKIE)?.value ?? null;
  return actorForUser(services.db, userId, preferred);
}

function sameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (origin) {
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  return req.headers.get("sec-fetch-site") === "same-origin";
}

/** The caller of an API request at this level: a bearer credential, else (not for agents) the session. */
export async function authenticate(req: Request, level: AuthLevel, services: ServerServices, now: Date): Promise<Caller> {
  if (level === "public") return { actor: { kind: "system", workspaceId: null } };
  const header = req.headers.get("authorization");
  if (header !== null) {
    const value = bearerToken(header);
    const { actor, snapshot } = value ? await authenticateBearerWithSnapshot(services.db, value, now) : { actor: null, snapshot: null };
    if (!actor) throw new AppError("unauthenticated", "The bearer token is invalid or revoked.");
    if (level === "agent") {
      if (actor.kind !== "agent") throw new AppError("forbidden", "This route takes an agent key.");
      return { actor, snapshot };
    }
    if (actor.kind === "agent") throw new AppError("forbidden", "Agent keys can only report observations.");
    requireRole(actor, level);
    return { actor, snapshot };
  }
  if (level === "agent") throw new AppError("unauthenticated", "Send the agent key as Authorization: Bearer <key>.");
  // Auth.js builds the request's URL from Host / X-Forwarded-Host; one that is not a host name makes it throw.
  const session = await auth().catch(() => {
    throw new AppError("bad_request", "The Host or X-Forwarded-Host header is not a valid host name.");
  });
  const userId = session?.user?.id;
  if (!userId) throw new AppError("unauthenticated", "Send Authorization: Bearer <token>, or sign in.");
  if (req.method !== "GET" && req.method !== "HEAD" && !sameOrigin(req)) {
    throw new AppError("forbidden", "Cross-site request refused.");
  }
  const actor = await sessionActor(services, userId);
  if (!actor) throw new AppError("forbidden", "You are not a member of any workspace.");
  requireRole(actor, level);
  return { actor };
}

export type PageSession = { ctx: RequestCtx & { actor: Extract<Actor, { kind: "user" }> }; workspaceName: string };

/** The sign-in page, told to come back to the page asked for (proxy.ts sets the header). */
async function signInAddress(): Promise<string> {
  const asked = (await headers()).get("x-driftwatch-path");
  return asked && asked !== "/" && asked.startsWith("/") && !asked.startsWith("//") ? `/signin?callbackUrl=${encodeURIComponent(asked)}` : "/signin";
}

/** For pages and their actions: the signed-in user's context, or a redirect to first-run setup or sign-in. */
export async function requirePageSession(): Promise<PageSession> {
  const services = await getServerServices();
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) {
    // An instance only tried with the demo is not set up yet; the one `driftwatch demo` runs is, and signs in.
    if (!services.config.demo && !(await hasAnyUser(services.db, { besidesDemo: true }))) redirect("/setup");
    redirect(await signInAddress());
  }
  const actor = await sessionActor(services, userId);
  if (!actor || actor.kind !== "user") redirect(await signInAddress());
  const ctx = await buildCtx(services, { actor }, { read: true, now: new Date() });
  return { ctx, workspaceName: await getWorkspaceName(services.db, actor.workspaceId) };
}
