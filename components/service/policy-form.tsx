"use client";
// The policy, editable by members: a server action saves it through
// updateService; field errors come back from the AppError's pointers and are
// shown beside their fields. Works without JavaScript too.
import { useActionState, type ReactNode } from "react";
import { savePolicyAction } from "@/app/services/[name]/actions";
import type { PolicyFormState } from "@/app/services/[name]/policy-input";
import { DRIFT_KIND_LIST, DRIFT_LABEL } from "@/components/ui/drift";
import type { DriftKind } from "@/lib/domain/policy";

export type PolicyView = {
  track: string;
  pin_major: number | null;
  tag_filter: string | null;
  prerelease: boolean;
  drift_alert_after: Partial<Record<DriftKind, string>>;
  github: string | null;
  gitlab: string | null;
  release_tag_prefix: string | null;
  changelog: string | null;
  eol: string | null;
  min_release_age: string | null;
};

const DEFAULT_DELAY: Record<DriftKind, string> = { env: "7d", upstream: "immediately", inconsistent: "15m", declared: "30m", eol: "immediately" };

function Field({ name, label, hint, error, children }: { name: string; label: string; hint?: ReactNode; error?: string; children: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode }) {
  const id = `f-${name.replace(/\W/g, "-")}`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-err` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={error ? "field invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(error ? { "aria-invalid": true as const } : {}), "aria-describedby": describedBy })}
      {hint ? <p className="hint" id={`${id}-hint`}>{hint}</p> : null}
      {error ? <p className="field-error" id={`${id}-err`}>{error}</p> : null}
    </div>
  );
}

export function PolicyForm({ service, team, policy, source }: { service: string; team: string | null; policy: PolicyView; source: "service" | "catalog" | "default" }) {
  const [state, action, pending] = useActionState<PolicyFormState, FormData>(savePolicyAction, { status: "idle" });
  const errors = state.errors ?? {};
  // After an error React resets the form; these defaults then show what was sent.
  const sent = state.status === "error" ? state.values : undefined;
  const value = (key: string, current: string | number | null | undefined) => sent?.[key] ?? (current === null || current === undefined ? "" : String(current));

  return (
    <form action={action} className="policy-form" aria-describedby="policy-status" noValidate>
      <input type="hidden" name="service" value={service} />
      <div id="policy-status" role="status" aria-live="polite">
        {state.status === "saved" ? <p className="notice">{state.message}</p> : null}
        {state.status === "error" ? <p className="alert">{state.message}</p> : null}
      </div>
      <fieldset>
        <legend>Versions</legend>
        <div className="fields">
          <Field name="track" label="Track" hint="Smallest version jump worth an alert." error={errors.track}>
            {(p) => (
              <select {...p} name="track" defaultValue={value("track", policy.track)} key={`track-${state.at ?? 0}`}>
                <option value="patch">patch: every release</option>
                <option value="minor">minor: new minor or major releases</option>
                <option value="major">major: new major releases only</option>
              </select>
            )}
          </Field>
          <Field name="pin_major" label="Pin major" hint="Stay on this major; newer majors are shown, not alerted." error={errors.pin_major}>
            {(p) => <input {...p} name="pin_major" inputMode="numeric" placeholder="none" defaultValue={value("pin_major", policy.pin_major)} />}
          </Field>
          <Field name="tag_filter" label="Tag filter" hint={<>A regular expression (RE2) tags must match, e.g. <code>^\d+\.\d+\.\d+-alpine$</code>. Empty: tags shaped like the running one.</>} error={errors.tag_filter}>
            {(p) => <input {...p} name="tag_filter" className="mono" spellCheck={false} autoComplete="off" defaultValue={value("tag_filter", policy.tag_filter)} />}
          </Field>
          <div className="field check">
            <label>
              <input type="checkbox" name="prerelease" defaultChecked={sent ? sent.prerelease === "on" : policy.prerelease} key={`pre-${state.at ?? 0}`} />
              Consider prereleases (alpha, beta, rc)
            </label>
          </div>
          <Field name="team" label="Team" hint="Shown in the matrix and used by filters and notification rules." error={errors.team}>
            {(p) => <input {...p} name="team" defaultValue={value("team", team)} />}
          </Field>
        </div>
      </fieldset>
      <fieldset>
        <legend>Alert after</legend>
        <p className="hint">How long a drift lasts before anyone is notified: durations such as <code>15m</code>, <code>72h</code>, <code>7d</code>. Empty: the default.</p>
        <div className="fields five">
          {DRIFT_KIND_LIST.map((kind) => (
            <Field key={kind} name={`drift_alert_after.${kind}`} label={DRIFT_LABEL[kind]} error={errors[`drift_alert_after.${kind}`] ?? (kind === "env" ? errors.drift_alert_after : undefined)}>
              {(p) => <input {...p} name={`drift_alert_after.${kind}`} className="mono" placeholder={DEFAULT_DELAY[kind]} defaultValue={value(`drift_alert_after.${kind}`, policy.drift_alert_after[kind])} />}
            </Field>
          ))}
        </div>
        <div className="fields">
          <Field name="min_release_age" label="Minimum release age" hint="A release alerts only once it is this old, counted from its release date on the forge, else from when Driftwatch first saw it. Empty: at once." error={errors.min_release_age}>
            {(p) => <input {...p} name="min_release_age" className="mono" placeholder="none" defaultValue={value("min_release_age", policy.min_release_age)} />}
          </Field>
        </div>
      </fieldset>
      <fieldset>
        <legend>Release notes and end of life</legend>
        <div className="fields">
          <Field name="github" label="GitHub repository" hint="owner/repo" error={errors.github}>
            {(p) => <input {...p} name="github" className="mono" spellCheck={false} defaultValue={value("github", policy.github)} />}
          </Field>
          <Field name="gitlab" label="GitLab project" hint="host/group/project, on gitlab.com or your GitLab" error={errors.gitlab}>
            {(p) => <input {...p} name="gitlab" className="mono" spellCheck={false} defaultValue={value("gitlab", policy.gitlab)} />}
          </Field>
          <Field name="release_tag_prefix" label="Release tag prefix" hint="e.g. v, when releases are tagged v1.2.3" error={errors.release_tag_prefix}>
            {(p) => <input {...p} name="release_tag_prefix" className="mono" spellCheck={false} defaultValue={value("release_tag_prefix", policy.release_tag_prefix)} />}
          </Field>
          <Field name="changelog" label="Changelog link" hint={<>A URL with <code>{"{version}"}</code></>} error={errors.changelog}>
            {(p) => <input {...p} name="changelog" className="mono" spellCheck={false} defaultValue={value("changelog", policy.changelog)} />}
          </Field>
          <Field name="eol" label="End-of-life product" hint={<>An endoflife.date product, or <code>none</code> to turn end-of-life tracking off</>} error={errors.eol}>
            {(p) => <input {...p} name="eol" className="mono" spellCheck={false} defaultValue={value("eol", policy.eol)} />}
          </Field>
        </div>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={pending}>{pending ? "Saving…" : "Save policy"}</button>
        {source === "service" ? (
          <button type="submit" name="reset" value="1" className="quiet" disabled={pending}>Remove this service&apos;s own policy</button>
        ) : (
          <span className="hint">Saving makes this the service&apos;s own policy{source === "catalog" ? ", in place of the catalog's" : ""}.</span>
        )}
      </div>
    </form>
  );
}
