"use server";
// Members: add, change role, remove. The members service enforces who may do what.
import { revalidatePath } from "next/cache";
import { addMember } from "@/lib/services/members/add";
import { changeMemberRole } from "@/lib/services/members/change-role";
import { removeMember } from "@/lib/services/members/remove";
import { redirectWithFlash, settingsAction, type ActionResult } from "../settings-action";

const PAGE = "/settings/users";

function back(result: ActionResult<string>): never {
  revalidatePath(PAGE);
  redirectWithFlash(PAGE, result);
}

export async function addMemberAction(form: FormData): Promise<void> {
  const password = String(form.get("password") ?? "");
  const input = { email: form.get("email"), role: form.get("role"), ...(password ? { password } : {}) };
  back(await settingsAction({}, async ({ ctx }) => {
    const m = await addMember({ ctx, input });
    return `${m.email} was added as ${m.role}.`;
  }));
}

export async function changeRoleAction(form: FormData): Promise<void> {
  const input = { email: String(form.get("email") ?? ""), role: form.get("role") };
  back(await settingsAction({}, async ({ ctx }) => {
    const m = await changeMemberRole({ ctx, input });
    return `${m.email} is now ${m.role}.`;
  }));
}

export async function removeMemberAction(form: FormData): Promise<void> {
  const email = String(form.get("email") ?? "");
  back(await settingsAction({}, async ({ ctx }) => {
    await removeMember({ ctx, input: { email } });
    return `${email} was removed from this workspace.`;
  }));
}
