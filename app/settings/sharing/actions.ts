"use server";
// Server action of the sharing page: a new badge key (admin), which stops every
// badge and calendar address handed out.
import { resetBadgeKey } from "@/lib/services/badges/reset-key";
import { redirectWithFlash, settingsAction } from "../settings-action";

export async function resetSharingKeyAction(): Promise<void> {
  const result = await settingsAction({ role: "admin" }, async ({ ctx }) => {
    await resetBadgeKey({ ctx });
    return "New addresses: the old badge and calendar addresses no longer load.";
  });
  redirectWithFlash("/settings/sharing", result);
}
