// Single sign-on's accounts: who is created, linked, joined or refused, and
// which role the groups claim gives, on a real database.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { OidcConfig } from "@/lib/config";
import { signInWithPassword } from "@/lib/services/sessions/sign-in";
import { signInWithOidc } from "@/lib/services/sessions/sign-in-with-oidc";
import { makeWorkspace, testDb, type TestWorkspace } from "../support/api";

const ISSUER = "https://id.example.test";
let ws: TestWorkspace;
let oidc: OidcConfig;

function signIn(claims: Record<string, unknown>, config: Partial<OidcConfig> = {}) {
  return signInWithOidc({ ctx: { db: testDb(), now: new Date(), oidc: { ...oidc, ...config } }, input: { iss: ISSUER, ...claims } });
}

async function roleOf(email: string, workspaceId = ws.id) {
  const m = await testDb().membership.findFirst({ where: { workspaceId, user: { email } } });
  return m?.role ?? null;
}

beforeAll(async () => {
  ws = await makeWorkspace("oidc");
  oidc = {
    issuer: ISSUER, clientId: "driftwatch", clientSecret: "not-used-here", name: "Example ID",
    workspace: ws.name, role: "viewer", groupsClaim: "groups", groupRoles: new Map([["ops", "member"], ["platform", "admin"]]),
  };
});

describe("signInWithOidc", () => {
  it("creates a person on their first sign-in, in the workspace, with the default role and no password", async () => {
    const sub = randomUUID();
    const r = await signIn({ sub, email: "Ada@Corp.test", email_verified: true, name: "Ada", groups: ["staff"] });
    expect(r).toMatchObject({ kind: "ok", user: { email: "ada@corp.test", name: "Ada" } });
    expect(await roleOf("ada@corp.test")).toEqual("viewer");
    const user = await testDb().user.findUniqueOrThrow({ where: { email: "ada@corp.test" }, include: { oidcIdentities: true } });
    expect(user.passwordHash).toBeNull();
    expect(user.oidcIdentities.map((i) => [i.issuer, i.subject])).toEqual([[ISSUER, sub]]);
    const audit = await testDb().auditEntry.findFirst({ where: { workspaceId: ws.id, subject: "ada@corp.test" } });
    expect(audit).toMatchObject({ actor: `oidc:${ISSUER}`, action: "member.added", data: { role: "viewer" } });
    // No password means no password sign-in, whatever is typed.
    expect((await signInWithPassword({ db: testDb(), now: new Date() }, { email: "ada@corp.test", password: "", ip: "oidc-test" })).kind).toEqual("invalid");
  });

  it("gives the highest role the groups map to, and follows the groups on later sign-ins", async () => {
    const sub = randomUUID();
    expect((await signIn({ sub, email: "grace@corp.test", email_verified: true, groups: ["ops", "staff"] })).kind).toEqual("ok");
    expect(await roleOf("grace@corp.test")).toEqual("member");
    await signIn({ sub, email: "grace@corp.test", groups: ["ops", "platform"] });
    expect(await roleOf("grace@corp.test")).toEqual("admin");
    await signIn({ sub, email: "grace@corp.test", groups: [] });
    expect(await roleOf("grace@corp.test")).toEqual("viewer");
  });

  it("leaves roles alone on later sign-ins when no mapping is configured", async () => {
    const sub = randomUUID();
    await signIn({ sub, email: "lin@corp.test", email_verified: true }, { groupRoles: new Map() });
    await testDb().membership.updateMany({ where: { workspaceId: ws.id, user: { email: "lin@corp.test" } }, data: { role: "member" } });
    await signIn({ sub, email: "lin@corp.test", groups: ["ops"] }, { groupRoles: new Map() });
    expect(await roleOf("lin@corp.test")).toEqual("member");
  });

  it("knows a person by issuer and subject, not by e-mail", async () => {
    const sub = randomUUID();
    const first = await signIn({ sub, email: "kay@corp.test", email_verified: true });
    const renamed = await signIn({ sub, email: "kay.new@corp.test", email_verified: true });
    expect(renamed).toEqual(first);
    // The same e-mail from another subject, unverified, takes nothing over.
    expect(await signIn({ sub: randomUUID(), email: "kay@corp.test", email_verified: false })).toEqual({ kind: "refused", reason: "email_taken" });
  });

  it("links an existing password account only through a verified e-mail, and never changes an owner's role", async () => {
    const ownerEmail = ws.owner.email;
    expect(await signIn({ sub: randomUUID(), email: ownerEmail, groups: ["platform"] })).toEqual({ kind: "refused", reason: "email_taken" });
    expect(await signIn({ sub: randomUUID(), email: ownerEmail, email_verified: "true" })).toEqual({ kind: "refused", reason: "email_taken" });
    const linked = await signIn({ sub: randomUUID(), email: ownerEmail, email_verified: true, groups: [] });
    expect(linked.kind).toEqual("ok");
    expect(await roleOf(ownerEmail)).toEqual("owner");
    // The password still works.
    expect((await signInWithPassword({ db: testDb(), now: new Date() }, { email: ownerEmail, password: ws.owner.password, ip: "oidc-test" })).kind).toEqual("ok");
  });

  it("refuses an unknown person when no workspace is configured, and keeps nothing of them", async () => {
    const r = await signIn({ sub: randomUUID(), email: "stranger@corp.test", email_verified: true }, { workspace: undefined });
    expect(r).toEqual({ kind: "refused", reason: "no_workspace" });
    expect(await testDb().user.findUnique({ where: { email: "stranger@corp.test" } })).toBeNull();
  });

  it("refuses when the configured workspace does not exist, or the provider gives no e-mail", async () => {
    expect(await signIn({ sub: randomUUID(), email: "x@corp.test", email_verified: true }, { workspace: "no-such-workspace" })).toEqual({ kind: "refused", reason: "workspace_missing" });
    expect(await signIn({ sub: randomUUID(), email_verified: true })).toEqual({ kind: "refused", reason: "no_email" });
    expect(await signIn({ sub: randomUUID(), email: "not an address" })).toEqual({ kind: "refused", reason: "no_email" });
  });

  it("does not bring back someone an admin removed", async () => {
    const sub = randomUUID();
    await signIn({ sub, email: "gone@corp.test", email_verified: true });
    await testDb().membership.deleteMany({ where: { workspaceId: ws.id, user: { email: "gone@corp.test" } } });
    expect(await signIn({ sub, email: "gone@corp.test", groups: ["ops"] })).toEqual({ kind: "refused", reason: "no_membership" });
    expect(await roleOf("gone@corp.test")).toBeNull();
  });
});
