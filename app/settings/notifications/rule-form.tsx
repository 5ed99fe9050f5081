"use client";
// A new notification rule. The channel decides which settings apply (its
// fields and help come from the channel table); CSS (:has) hides the
// others, so the form also works without JavaScript.
import { useActionState } from "react";
import { DRIFT_KIND_LIST, DRIFT_LABEL } from "@/components/ui/drift";
import type { ChannelField } from "@/lib/adapters/channels/channel";
import { GATE_REFUSED_NAME } from "@/lib/domain/words";
import { createRuleAction, type RuleFormState } from "./actions";

const EVENTS = [
  { id: "drift_detected", label: "Drift detected", hint: "a drift lasted its alert delay" },
  { id: "drift_resolved", label: "Drift resolved", hint: "a notified drift ended" },
  { id: "upgrade_plan", label: "Weekly upgrade plan", hint: "the updates list, every Monday" },
  { id: "gate_refused", label: GATE_REFUSED_NAME, hint: "the promotion gate stopped a deploy (enforce mode)" },
];

/** A channel as the form offers it (from the channel table, read on the server). */
export type ChannelChoice = { id: string; label: string; help: string; fields: readonly ChannelField[] };

export function RuleForm({ canAllowPrivate, channels }: { canAllowPrivate: boolean; channels: readonly ChannelChoice[] }) {
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
          {/* Keyed by the answer: React resets a form after its action, and a select keeps only the default it mounted with. */}
          <select key={state.at ?? "initial"} id="nr-channel" name="channel" defaultValue={str("channel", "webhook")} {...aria("channel")}>
            {channels.map((c) => <option key={c.id} value={c.id}>{c.label}</option>)}
          </select>
          {err("channel")}
        </div>
      </div>
      {/* Only the chosen channel's fields show: one CSS rule per channel, so this works without JavaScript too. */}
      <style>{channels.map((c) => `.rule-form:has(select[name="channel"] option[value="${c.id}"]:checked) .channel-fields:not([data-channel="${c.id}"])`).join(",\n")}{" { display: none; }"}</style>
      {channels.map((c) => (
        <div key={c.id} className="fields channel-fields" data-channel={c.id}>
          {c.fields.map((f) => {
            const id = `nr-${c.id}-${f.name}`;
            // Only the channel that was sent carries the answer's field errors.
            const fieldError = c.id === str("channel") ? e[f.name] : undefined;
            const name = `${c.id}.${f.name}`;
            const label = f.optional ? `${f.label} (optional)` : f.label;
            if (f.type === "checkbox") {
              return (
                <label key={f.name} className="check-inline"><input type="checkbox" name={name} defaultChecked={str(name) === "on"} /> {label} <span className="hint">{f.help}</span></label>
              );
            }
            const masked = f.secret && f.name !== "url";
            return (
              <div key={f.name} className={fieldError ? "field invalid" : "field"}>
                <label htmlFor={id}>{label}</label>
                <input
                  id={id} name={name} className={masked ? undefined : "mono"} spellCheck={false}
                  {...(masked ? { type: "password", autoComplete: "off" } : { defaultValue: str(name) })}
                  placeholder={f.placeholder}
                  {...(fieldError ? { "aria-invalid": true as const, "aria-describedby": `${id}-err` } : {})}
                />
                <p className="hint">{f.help}</p>
                {fieldError ? <p className="field-error" id={`${id}-err`}>{fieldError}</p> : null}
              </div>
            );
          })}
          <p className="hint channel-help">{c.help}</p>
        </div>
      ))}
      <fieldset>
        <legend>Events</legend>
        <div className="checks">
          {EVENTS.map((ev) => (
            <label key={ev.id}><input type="checkbox" name="events" value={ev.id} defaultChecked={has("events", ev.id)} /> {ev.label} <span className="hint">{ev.hint}</span></label>
          ))}
        </div>
        <p className="hint">None ticked: drift detected and resolved. PagerDuty carries drift events only.</p>
        {err("events")}
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
