"use client";
// A new notification rule. The channel decides which settings apply; CSS
// (:has) hides the others, so the form also works without JavaScript.
import { useActionState } from "react";
import { DRIFT_KIND_LIST, DRIFT_LABEL } from "@/components/ui/drift";
import { createRuleAction, type RuleFormState } from "./actions";

const EVENTS = [
  { id: "drift_detected", label: "Drift detected", hint: "a drift lasted its alert delay" },
  { id: "drift_resolved", label: "Drift resolved", hint: "a notified drift ended" },
  { id: "upgrade_plan", label: "Weekly upgrade plan", hint: "the updates list, every Monday" },
];

export function RuleForm({ canAllowPrivate }: { canAllowPrivate: boolean }) {
  const [state, action, pending] = useActionState<RuleFormState, FormData>(createRuleAction, { status: "idle" });
  const e = state.errors ?? {};
  const v = state.status === "error" ? (state.values ?? {}) : {};
  const str = (k: string, d = "") => (typeof v[k] === "string" ? (v[k] as string) : d);
  const has = (k: string, id: string) => (Array.isArray(v[k]) ? (v[k] as string[]).includes(id) : false);
  const err = (k: string) => (e[k] ? <p className="field-error" id={`nr-${k}-err`}>{e[k]}</p> : null);
  const aria = (k: string) => (e[k] ? { "aria-invalid": true as const, "aria-describedby": `nr-${k}-err` } : {});
  return (
    <form action={action} className="policy-form rule-form" aria-label="Add a notification rule" noValidate key={state.status === "created" ? state.at : "form"}>
      <div role="status" aria-live="polite">
        {state.status === "created" ? <p className="notice">{state.message}</p> : null}
        {state.status === "error" ? <p className="alert">{state.message}</p> : null}
      </div>
      <div className="fields">
        <div className={e.name ? "field invalid" : "field"}>
          <label htmlFor="nr-name">Name</label>
          <input id="nr-name" name="name" required maxLength={100} defaultValue={str("name")} placeholder="Platform on-call" {...aria("name")} />
          {err("name")}
        </div>
        <div className={e.channel ? "field invalid" : "field"}>
          <label htmlFor="nr-channel">Channel</label>
          <select id="nr-channel" name="channel" defaultValue={str("channel", "webhook")} {...aria("channel")}>
            <option value="webhook">Webhook (signed JSON)</option>
            <option value="slack">Slack incoming webhook</option>
            <option value="email">E-mail</option>
          </select>
          {err("channel")}
        </div>
        <div className={e.url ? "field invalid only-url" : "field only-url"}>
          <label htmlFor="nr-url">URL</label>
          <input id="nr-url" name="url" className="mono" spellCheck={false} defaultValue={str("url")} placeholder="https://hooks.example.com/driftwatch" {...aria("url")} />
          {err("url")}
        </div>
        <div className={e.secret ? "field invalid only-webhook" : "field only-webhook"}>
          <label htmlFor="nr-secret">Signing secret</label>
          <input id="nr-secret" name="secret" type="password" autoComplete="off" minLength={16} {...aria("secret")} />
          <p className="hint">At least 16 characters; signs X-Driftwatch-Signature. Never shown again.</p>
          {err("secret")}
        </div>
        <div className={e.to ? "field invalid only-email" : "field only-email"}>
          <label htmlFor="nr-to">Send to</label>
          <input id="nr-to" name="to" defaultValue={str("to")} placeholder="oncall@example.com, team@example.com" {...aria("to")} />
          {err("to")}
        </div>
      </div>
      <fieldset>
        <legend>Events</legend>
        <div className="checks">
          {EVENTS.map((ev) => (
            <label key={ev.id}><input type="checkbox" name="events" value={ev.id} defaultChecked={has("events", ev.id)} /> {ev.label} <span className="hint">{ev.hint}</span></label>
          ))}
        </div>
        <p className="hint">None ticked: drift detected and resolved.</p>
      </fieldset>
      <fieldset>
        <legend>Only for</legend>
        <div className="checks">
          {DRIFT_KIND_LIST.map((k) => (
            <label key={k}><input type="checkbox" name="kinds" value={k} defaultChecked={has("kinds", k)} /> {DRIFT_LABEL[k]}</label>
          ))}
        </div>
        <div className="fields">
          <div className="field"><label htmlFor="nr-services">Services</label><input id="nr-services" name="services" defaultValue={str("services")} placeholder="all" /></div>
          <div className="field"><label htmlFor="nr-environments">Environments</label><input id="nr-environments" name="environments" defaultValue={str("environments")} placeholder="all" /></div>
          <div className="field"><label htmlFor="nr-teams">Teams</label><input id="nr-teams" name="teams" defaultValue={str("teams")} placeholder="all" /></div>
        </div>
        <p className="hint">Comma-separated names; empty matches all.</p>
      </fieldset>
      {canAllowPrivate ? (
        <label className="check-inline"><input type="checkbox" name="allow_private" /> Allow a private-network or loopback destination <span className="hint">(admins only)</span></label>
      ) : null}
      <div className="form-actions"><button type="submit" className="primary" disabled={pending}>{pending ? "Adding…" : "Add rule"}</button></div>
    </form>
  );
}
