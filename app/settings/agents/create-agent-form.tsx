"use client";
import { useActionState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { createAgentKeyAction, type CreateAgentKeyState } from "./actions";

const agentCommand = (baseUrl: string, key: string) => `npx driftwatch agent --url ${baseUrl} --key ${key} --environment production`;

export function CreateAgentKeyForm({ baseUrl }: { baseUrl: string }) {
  const [state, action, pending] = useActionState<CreateAgentKeyState, FormData>(createAgentKeyAction, {});
  return (
    <div className="grid">
      <form action={action} className="inline-form" aria-label="Create an agent key">
        <label>Name <input name="name" placeholder="edge-1" maxLength={100} required /></label>
        <button type="submit" className="primary" disabled={pending}>{pending ? "Creating…" : "Create agent key"}</button>
      </form>
      {state.error ? <p role="alert" className="alert">{state.error}</p> : null}
      {state.value ? (
        <div className="notice" role="status">
          <p><strong>Agent key “{state.name}” created.</strong> Copy it now: it is shown only this once.</p>
          <code className="secret" data-testid="new-agent-key">{state.value}</code>
          <p>Run an agent next to your orchestrator with it (from a Driftwatch checkout; the local Docker Engine by default, see <code>npx driftwatch agent --help</code>):</p>
          <pre className="code" tabIndex={0}>{agentCommand(baseUrl, state.value)}</pre>
          <CopyButton text={state.value} label="Copy key" copiedLabel="Key copied" />
          <CopyButton text={agentCommand(baseUrl, state.value)} label="Copy command" copiedLabel="Command copied" />
        </div>
      ) : null}
    </div>
  );
}
