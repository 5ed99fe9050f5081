"use server";
// Members: add, change role, remove. The members service enforces who may do what.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { withFlash } from "@/components/settings/flash";
import { AppError } from "@/lib/domain/errors";
import { requirePageSession } from "@/lib/server/session";
import { addMember } from "@/lib/services/members/add";
import { changeMemberRole } from "@/lib/services/members/change-role";
import { removeMember } from "@/lib/services/members/remove";

const PAGE = "/settings/users";

async function run(fn: () => Promise<string>): Promise<never> {
  let to: string;
  try {
    to = withFlash(PAGE, { ok: await fn() });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    to = withFlash(PAGE, { error: err.message });
  }
  revalidatePath(PAGE);
  redirect(to);
}

export async function addMemberAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  const password = String(form.get("password") ?? "");
  await run(async () => {
    const m = await addMember({ ctx, input: { email: form.get("email"), role: form.get("role"), ...(password ? { password } : {}) } });
    return `${m.email} was added as ${m.role}.`;
  });
}

export async function changeRoleAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  await run(async () => {
    const m = await changeMemberRole({ ctx, input: { email: String(form.get("email") ?? ""), role: form.get("role") } });
    return `${m.email} is now ${m.role}.`;
  });
}

export async function removeMemberAction(form: FormData): Promise<void> {
  const { ctx } = await requirePageSession();
  const email = String(form.get("email") ?? "");
  await run(async () => {
    await removeMember({ ctx, input: { email } });
    return `${email} was removed from this workspace.`;
  });
}
