"use client";
import { useActionState } from "react";
import { createComposeTargetAction, type ComposeFormState } from "./actions";

function Err({ id, text }: { id: string; text?: string }) {
  return text ? <p className="field-error" id={id}>{text}</p> : null;
}

export function ComposeTargetForm({ environments }: { environments: string[] }) {
  const [state, action, pending] = useActionState<ComposeFormState, FormData>(createComposeTargetAction, { status: "idle" });
  const e = state.errors ?? {};
  const v = state.status === "error" ? (state.values ?? {}) : {};
  const invalid = (k: string) => (e[k] ? { "aria-invalid": true as const, "aria-describedby": `cg-${k}-err` } : {});
  return (
    <form action={action} className="policy-form" aria-label="Add a Compose-in-Git target" noValidate>
      <div role="status" aria-live="polite">
        {state.status === "created" ? <p className="notice">{state.message}</p> : null}
        {state.status === "error" ? <p className="alert">{state.message}</p> : null}
      </div>
      <div className="fields">
        <div className={e.environment ? "field invalid" : "field"}>
          <label htmlFor="cg-environment">Environment</label>
          <input id="cg-environment" name="environment" list="cg-envs" required defaultValue={v.environment ?? ""} placeholder="production" {...invalid("environment")} />
          <datalist id="cg-envs">{environments.map((env) => <option key={env} value={env} />)}</datalist>
          <Err id="cg-environment-err" text={e.environment} />
        </div>
        <div className={e.repository_url ? "field invalid" : "field"}>
          <label htmlFor="cg-repository_url">Repository</label>
          <input id="cg-repository_url" name="repository_url" className="mono" required spellCheck={false} defaultValue={v.repository_url ?? ""} placeholder="https://git.example.com/acme/deploy.git" {...invalid("repository_url")} />
          <Err id="cg-repository_url-err" text={e.repository_url} />
        </div>
        <div className={e.branch ? "field invalid" : "field"}>
          <label htmlFor="cg-branch">Branch</label>
          <input id="cg-branch" name="branch" className="mono" defaultValue={v.branch ?? "main"} {...invalid("branch")} />
          <Err id="cg-branch-err" text={e.branch} />
        </div>
        <div className={e.name ? "field invalid" : "field"}>
          <label htmlFor="cg-name">Target name <span className="hint">optional</span></label>
          <input id="cg-name" name="name" defaultValue={v.name ?? ""} placeholder="compose@production" {...invalid("name")} />
          <Err id="cg-name-err" text={e.name} />
        </div>
      </div>
      <div className={e.paths ? "field invalid" : "field"}>
        <label htmlFor="cg-paths">Compose files</label>
        <textarea id="cg-paths" name="paths" rows={3} className="mono" required defaultValue={v.paths ?? ""} placeholder={"compose.yaml\ncompose.production.yaml"} aria-describedby={e.paths ? "cg-paths-hint cg-paths-err" : "cg-paths-hint"} {...(e.paths ? { "aria-invalid": true } : {})} />
        <p className="hint" id="cg-paths-hint">Paths inside the repository, one a line; several files are merged in order, as docker compose does.</p>
        <Err id="cg-paths-err" text={e.paths} />
      </div>
      <div className="form-actions"><button type="submit" className="primary" disabled={pending}>{pending ? "Adding…" : "Add target"}</button></div>
    </form>
  );
}
