"use client";
// "Check now": asks for an upstream check through a server action; the
// result is announced where the button is.
import { useActionState } from "react";
import { checkNowAction, type CheckState } from "@/app/services/[name]/actions";

export function CheckNow({ service }: { service: string }) {
  const [state, action, pending] = useActionState<CheckState, FormData>(checkNowAction, { status: "idle" });
  return (
    <form action={action} className="check-now">
      <input type="hidden" name="service" value={service} />
      <button type="submit" disabled={pending}>{pending ? "Checking…" : "Check now"}</button>
      <span role="status" className={state.status === "error" ? "check-msg bad" : "check-msg"}>{state.message ?? ""}</span>
    </form>
  );
}
