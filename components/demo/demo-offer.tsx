"use client";
// The offer of a demo workspace filled in this server: on first-run setup it
// signs in to it; inside an instance (an admin's empty matrix) it says how.
import { useActionState } from "react";
import { tryDemoAction, tryDemoFromSetupAction, type DemoState } from "@/app/setup/demo-actions";

export function DemoOffer({ from }: { from: "setup" | "inside" }) {
  const [state, action, pending] = useActionState<DemoState>(from === "setup" ? tryDemoFromSetupAction : tryDemoAction, { status: "idle" });
  return (
    <form action={action} className="demo-offer">
      <p className="muted small-text">
        Just looking around? Open a <strong>demo workspace</strong> of its own, filled with about twenty services over dev, staging and production
        {from === "setup" ? "; you can still create your own workspace here afterwards." : "; your workspace stays as it is."}
      </p>
      <button type="submit" disabled={pending}>{pending ? "Filling the demo workspace…" : "Try the demo"}</button>
      <p role="status" data-testid="demo-status" className={state.status === "error" ? "alert compact" : "hint"}>{pending ? "This takes a few seconds." : (state.message ?? "")}</p>
    </form>
  );
}
