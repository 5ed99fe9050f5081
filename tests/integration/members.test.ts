// Who may add people, change roles and remove them; the last owner stays.
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import type { RequestCtx, Role } from "@/lib/services/context";
import { addMember } from "@/lib/services/members/add";
import { changeMemberRole } from "@/lib/services/members/change-role";
import { listMembers } from "@/lib/services/members/list";
import { removeMember } from "@/lib/services/members/remove";
import { signInWithPassword } from "@/lib/services/sessions/sign-in";
import { makeWorkspace, testDb, type TestWorkspace } from "../support/api";

let ws: TestWorkspace;
let owner: RequestCtx;

async function asUser(email: string, role: Role): Promise<RequestCtx> {
  const user = await testDb().user.findUniqueOrThrow({ where: { email } });
  return { ...ws.ctx, actor: { kind: "user", userId: user.id, email, workspaceId: ws.id, role } };
}

const code = async (p: Promise<unknown>) => p.then(() => "ok", (e: unknown) => (e instanceof AppError ? e.code : String(e)));

beforeAll(async () => {
  ws = await makeWorkspace("members");
  owner = await asUser(ws.owner.email, "owner");
});

describe("workspace members", () => {
  it("adds a new person with a first password they can sign in with", async () => {
    const added = await addMember({ ctx: owner, input: { email: "Ada@Example.test", role: "member", password: "first-password" } });
    expect(added).toMatchObject({ email: "ada@example.test", role: "member" });
    const signIn = await signInWithPassword({ db: testDb(), now: new Date() }, { email: "ada@example.test", password: "first-password", ip: "test" });
    expect(signIn.kind).toBe("ok");
    const list = await listMembers({ ctx: owner });
    expect(list.items.map((m) => [m.email, m.role, m.you])).toEqual([[ws.owner.email, "owner", true], ["ada@example.test", "member", false]]);
  });

  it("refuses a new person without a password, a duplicate, and a bad e-mail", async () => {
    expect(await code(addMember({ ctx: owner, input: { email: "nopass@example.test", role: "viewer" } }))).toBe("invalid_input");
    expect(await code(addMember({ ctx: owner, input: { email: "ada@example.test", role: "viewer" } }))).toBe("conflict");
    expect(await code(addMember({ ctx: owner, input: { email: "not-an-email", role: "viewer", password: "xxxxxxxxx" } }))).toBe("invalid_input");
  });

  it("lets an admin manage members but not grant or touch owners; members and viewers manage nobody", async () => {
    await addMember({ ctx: owner, input: { email: "root@example.test", role: "admin", password: "admin-password" } });
    const admin = await asUser("root@example.test", "admin");
    expect(await code(addMember({ ctx: admin, input: { email: "v@example.test", role: "viewer", password: "viewer-password" } }))).toBe("ok");
    expect(await code(addMember({ ctx: admin, input: { email: "o2@example.test", role: "owner", password: "owner-password" } }))).toBe("forbidden");
    expect(await code(changeMemberRole({ ctx: admin, input: { email: ws.owner.email, role: "viewer" } }))).toBe("forbidden");
    expect(await code(removeMember({ ctx: admin, input: { email: ws.owner.email } }))).toBe("forbidden");
    const member = await asUser("ada@example.test", "member");
    expect(await code(addMember({ ctx: member, input: { email: "x@example.test", role: "viewer", password: "xxxxxxxxx" } }))).toBe("forbidden");
    expect(await code(removeMember({ ctx: member, input: { email: "v@example.test" } }))).toBe("forbidden");
  });

  it("keeps the last owner, and changes and removes others", async () => {
    expect(await code(changeMemberRole({ ctx: owner, input: { email: ws.owner.email, role: "admin" } }))).toBe("conflict");
    expect(await code(removeMember({ ctx: owner, input: { email: ws.owner.email } }))).toBe("conflict");
    expect(await changeMemberRole({ ctx: owner, input: { email: "ada@example.test", role: "viewer" } })).toMatchObject({ role: "viewer" });
    await removeMember({ ctx: owner, input: { email: "v@example.test" } });
    expect((await listMembers({ ctx: owner })).items.map((m) => m.email)).not.toContain("v@example.test");
    expect(await code(removeMember({ ctx: owner, input: { email: "nobody@example.test" } }))).toBe("not_found");
  });

  it("keeps workspaces apart: another workspace's owner cannot see or change these members", async () => {
    const other = await makeWorkspace("members-other");
    const otherOwner = { ...other.ctx, actor: { kind: "user" as const, userId: (await testDb().user.findUniqueOrThrow({ where: { email: other.owner.email } })).id, email: other.owner.email, workspaceId: other.id, role: "owner" as const } };
    expect((await listMembers({ ctx: otherOwner })).items.map((m) => m.email)).toEqual([other.owner.email]);
    expect(await code(removeMember({ ctx: otherOwner, input: { email: "ada@example.test" } }))).toBe("not_found");
  });
});
