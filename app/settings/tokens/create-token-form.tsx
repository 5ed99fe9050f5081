"use client";
import { useActionState } from "react";
import { createTokenAction, type CreateTokenState } from "./actions";

export function CreateTokenForm() {
  const [state, action, pending] = useActionState<CreateTokenState, FormData>(createTokenAction, {});
  return (
    <div className="grid">
      <form action={action} className="inline-form" aria-label="Create an API token">
        <label>Name <input name="name" placeholder="ci-reader" maxLength={100} /></label>
        <label>
          Role
          <select name="role" defaultValue="viewer">
            <option value="viewer">viewer (read)</option>
            <option value="member">member (read, acknowledge, change policies)</option>
          </select>
        </label>
        <button type="submit" className="primary" disabled={pending}>{pending ? "Creating…" : "Create token"}</button>
      </form>
      {state.error ? <p role="alert" className="alert">{state.error}</p> : null}
      {state.value ? (
        <div className="notice" role="status">
          <p><strong>Token “{state.name}” created.</strong> Copy it now: it is shown only this once.</p>
          <code className="secret" data-testid="new-token">{state.value}</code>
        </div>
      ) : null}
    </div>
  );
}
