"use client";
import { useActionState } from "react";
import { testSendAction, type TestSendState } from "./actions";

export function TestSendButton({ id, name }: { id: string; name: string }) {
  const [state, action, pending] = useActionState<TestSendState, FormData>(testSendAction, { status: "idle" });
  return (
    <form action={action} className="test-send">
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="small" disabled={pending} aria-label={`Send a test notification for ${name}`}>{pending ? "Sending…" : "Send test"}</button>
      <span role="status" className={state.status === "failed" ? "check-msg bad" : "check-msg"}>{state.message ?? ""}</span>
    </form>
  );
}
