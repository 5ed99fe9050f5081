// "Try the demo" in the running server: a workspace named `demo` with an owner
// of its own, filled from lib/domain/demo/plan.ts through the same use cases
// the API and the agents reach (environments, agent reports, services,
// acknowledgements), never by raw inserts. Upstream tags are the agent's
// recorded look-ups, so it works offline. A second call fills nothing twice.
// A new owner gets a random password, shown once: a known password would open a
// workspace on a real instance to anyone who knows the demo. An existing owner's
// password is never touched: someone may have been given it (`driftwatch demo`
// prints its own), so callers sign in through a one-time ticket instead.
import { randomBytes } from "node:crypto";
import { getUserByEmail } from "@/lib/db/queries/users/get-user-by-email";
import { getWorkspaceWithMembers } from "@/lib/db/queries/workspaces/get-workspace-with-members";
import { AppError } from "@/lib/domain/errors";
import { agentReportSchema } from "@/lib/domain/agent-report";
import {
  DEMO_ACKS, DEMO_EMAIL, DEMO_ENVIRONMENTS, DEMO_WORKSPACE, RECORDED_HOST,
  demoDeclarations, demoImageDigest, demoReports, demoServiceUpdates, type DemoPlanInput,
} from "@/lib/domain/demo/plan";
import { createAck } from "../acks/create";
import { createAgentKey } from "../agent-keys/create";
import { recordAgentReport } from "../agent-reports/record";
import type { RequestCtx } from "../context";
import { evaluateWorkspaceDrift } from "../drift/evaluate-workspace";
import { createEnvironment } from "../environments/create";
import { updateService } from "../services/update";
import { setupWorkspace } from "../workspaces/setup";

export type DemoWorkspace = {
  workspace: string;
  email: string;
  /** The owner's user id, for a one-time sign-in. */
  userId: string;
  /** Only when this call made the owner; an existing owner keeps the password they were given. */
  password: string | null;
  /** False when the demo workspace existed already: nothing was added. */
  created: boolean;
};

const DAY = 86_400_000;

export async function createDemoWorkspace({ ctx }: { ctx: Pick<RequestCtx, "db" | "config" | "now"> }): Promise<DemoWorkspace> {
  const password = randomBytes(15).toString("base64url");
  const out = { workspace: DEMO_WORKSPACE, email: DEMO_EMAIL };
  const notOurs = () => new AppError("conflict", `A workspace or user named like the demo's (${DEMO_WORKSPACE}, ${DEMO_EMAIL}) exists already and is not the demo.`);
  const existing = await getUserByEmail(ctx.db, DEMO_EMAIL);
  if (existing) {
    const ws = await getWorkspaceWithMembers(ctx.db, DEMO_WORKSPACE);
    if (!ws?.memberships.some((m) => m.userId === existing.id && m.role === "owner")) throw notOurs();
    return { ...out, userId: existing.id, password: null, created: false };
  }
  let setup;
  try {
    setup = await setupWorkspace({ ctx, input: { workspace: DEMO_WORKSPACE, email: DEMO_EMAIL, password } });
  } catch (err) {
    // Another owner's `demo`: not ours to fill.
    if (err instanceof AppError && err.code === "conflict") throw notOurs();
    throw err;
  }
  if (!setup.created.workspace) return { ...out, userId: setup.userId, password: setup.created.user ? password : null, created: false };
  const owner: RequestCtx = { ...ctx, actor: { kind: "system", workspaceId: setup.workspaceId } };
  const plan: DemoPlanInput = { imageHost: RECORDED_HOST, digestOf: demoImageDigest, recordedTags: true, now: ctx.now.getTime() };

  for (const env of DEMO_ENVIRONMENTS) await createEnvironment({ ctx: owner, input: { ...env } });
  const key = await createAgentKey({ ctx: owner, input: { name: "demo-agent" } });
  const agent: RequestCtx = { ...ctx, actor: { kind: "agent", agentKeyId: key.id, workspaceId: setup.workspaceId, name: key.name } };
  const send = (body: unknown) => recordAgentReport({ ctx: agent, input: agentReportSchema.parse(body), evaluateDrift: false });
  // Each target's reports in order (an older one than the last is ignored); targets side by side.
  await Promise.all(demoReports(plan).map(async (reports) => {
    for (const report of reports) await send(report);
  }));
  // Staging's Compose file in Git, as an agent that reads it reports it: declared, a day old.
  const since = new Date(plan.now - DAY).toISOString();
  await send({
    environment: "staging", target: { name: "compose@staging", kind: "compose_git" }, observed_at: ctx.now.toISOString(),
    workloads: demoDeclarations(plan).map((d) => ({ service: d.service, container: d.service, main: true, image: d.image, digest: null, platform_digest: null, platform: null, since })),
  });
  for (const { name, ...update } of demoServiceUpdates()) await updateService({ ctx: owner, input: { name, ...update } });
  for (const ack of DEMO_ACKS) await createAck({ ctx: owner, input: { ...ack } });
  await evaluateWorkspaceDrift({ ctx: { db: ctx.db, config: ctx.config, now: ctx.now }, input: { workspaceId: setup.workspaceId } });
  return { ...out, userId: setup.userId, password, created: true };
}
