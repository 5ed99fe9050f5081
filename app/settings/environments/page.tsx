// Environments in pipeline order: env drift, promotions and lead times follow
// it. Members move environments and mark production.
import { FlashMessage, readFlash } from "@/components/settings/flash";
import { SettingsFrame } from "@/components/settings/settings-frame";
import { requirePageSession } from "@/lib/http/context";
import { hasRole } from "@/lib/services/context";
import { listEnvironments } from "@/lib/services/environments/list";
import { getAdmissionAddress } from "@/lib/services/gate/admission-address";
import { createEnvironmentAction, moveEnvironmentAction, setGateAction, setPositionAction, setProductionAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Environments" };

export default async function EnvironmentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const flash = await readFlash(searchParams);
  const { items } = await listEnvironments({ ctx });
  const canEdit = hasRole(ctx.actor, "member");
  const canGate = hasRole(ctx.actor, "admin");
  const webhooks = canGate ? await Promise.all(items.map((e) => getAdmissionAddress({ ctx, input: { name: e.name } }).then((a) => a.url))) : [];
  return (
    <SettingsFrame current="environments" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Environments</h1>
          <p className="muted">The pipeline order: a version moves from each environment to the next. Env drift, promotions and lead times follow this order.</p>
        </div>
      </div>
      <FlashMessage flash={flash} />
      {items.length === 0 ? (
        <div className="card empty"><p>No environments yet. Agents create them as they report; you can add them here ahead of time.</p></div>
      ) : (
        <ol className="pipeline" aria-label="Pipeline">
          {items.map((e) => (
            <li key={e.name} className={e.production ? "prod-step" : undefined}>
              <span className="step-no" aria-hidden="true" title={`position ${e.position}`}>{e.position}</span>
              <span className="step-name">{e.name}</span>
              {e.production ? <span className="prod">prod</span> : null}
            </li>
          ))}
        </ol>
      )}
      {items.length > 0 ? (
        <table className="data settings-table">
          <caption className="sr">Environments in pipeline order</caption>
          <thead>
            <tr><th scope="col">Order</th><th scope="col">Environment</th><th scope="col">Position</th><th scope="col">Production</th><th scope="col">Targets</th><th scope="col">Gate</th></tr>
          </thead>
          <tbody>
            {items.map((e, i) => (
              <tr key={e.name}>
                <td>
                  {canEdit ? (
                    <div className="move">
                      <form action={moveEnvironmentAction}>
                        <input type="hidden" name="name" value={e.name} />
                        <input type="hidden" name="direction" value="up" />
                        <button type="submit" className="small" disabled={i === 0} aria-label={`Move ${e.name} up`}>↑</button>
                      </form>
                      <form action={moveEnvironmentAction}>
                        <input type="hidden" name="name" value={e.name} />
                        <input type="hidden" name="direction" value="down" />
                        <button type="submit" className="small" disabled={i === items.length - 1} aria-label={`Move ${e.name} down`}>↓</button>
                      </form>
                    </div>
                  ) : null}
                </td>
                <th scope="row">{e.name}</th>
                <td>
                  {canEdit ? (
                    <form action={setPositionAction} className="inline-form tight">
                      <input type="hidden" name="name" value={e.name} />
                      <label className="sr" htmlFor={`pos-${e.name}`}>Position of {e.name}</label>
                      <input id={`pos-${e.name}`} name="position" type="number" min={0} max={10000} defaultValue={e.position} className="num" required />
                      <button type="submit" className="small">Set</button>
                    </form>
                  ) : (
                    e.position
                  )}
                </td>
                <td>
                  {e.production ? <span className="pill info">production</span> : <span className="muted">no</span>}
                  {canEdit ? (
                    <form action={setProductionAction} className="inline">
                      <input type="hidden" name="name" value={e.name} />
                      <input type="hidden" name="production" value={e.production ? "false" : "true"} />
                      <button type="submit" className="link">{e.production ? `Unmark ${e.name}` : `Mark ${e.name} as production`}</button>
                    </form>
                  ) : null}
                </td>
                <td>{e.targets}</td>
                <td>{e.gate.mode === "off" ? <span className="muted">off</span> : <span className={e.gate.mode === "enforce" ? "pill warn" : "pill info"}>{e.gate.mode}, soak {e.gate.soak}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {items.length > 0 ? (
        <section className="card" aria-labelledby="gate-h">
          <h2 id="gate-h">Promotion gate</h2>
          <p className="muted">
            A version may run in an environment once it has run in the one before it for the soak time (summed over its runs there); a version that ran there
            before (a rollback) always may, and the first environment needs nothing. Ask it from CI with <code>driftwatch gate</code> or{" "}
            <code>POST /api/v1/gate</code>; Kubernetes asks it through the webhook. <em>Audit</em> only warns; <em>enforce</em> refuses.
          </p>
          {items.map((e, i) => (
            <form key={e.name} action={setGateAction} className="inline-form gate-form" aria-label={`Gate of ${e.name}`}>
              <input type="hidden" name="name" value={e.name} />
              <strong className="gate-env">{e.name}</strong>
              <label>Mode{" "}
                <select name="mode" defaultValue={e.gate.mode} disabled={!canGate}>
                  <option value="off">off</option>
                  <option value="audit">audit</option>
                  <option value="enforce">enforce</option>
                </select>
              </label>
              <label>Soak <input name="soak" defaultValue={e.gate.soak} className="num" maxLength={32} pattern="0|(\d{1,7}[smhdw])+" title="A duration such as 0s, 24h or 3d" disabled={!canGate} /></label>
              <label className="check-inline"><input type="checkbox" name="refuse_eol" defaultChecked={e.gate.refuse_eol} disabled={!canGate} /> Refuse end of life</label>
              <label>Unknown{" "}
                <select name="unknown" defaultValue={e.gate.unknown} disabled={!canGate}>
                  <option value="allow">allow</option>
                  <option value="refuse">refuse</option>
                </select>
              </label>
              {canGate ? <button type="submit" className="small">Save gate</button> : null}
              {i === 0 ? <span className="hint">First in the pipeline: needs nothing but end of life.</span> : null}
              {canGate && webhooks[i] ? (
                <details className="gate-webhook">
                  <summary>Kubernetes webhook</summary>
                  <p className="hint">Signed like the badges (a badge reset stops it). <code>GET /api/v1/environments/{e.name}/admission</code> gives a ready ValidatingWebhookConfiguration.</p>
                  <code className="wrap">{webhooks[i]}</code>
                </details>
              ) : null}
            </form>
          ))}
          {canGate ? null : <p className="hint">Admins set the gate.</p>}
        </section>
      ) : null}
      {canEdit ? (
        <section className="card" aria-labelledby="add-env-h">
          <h2 id="add-env-h">Add an environment</h2>
          <form action={createEnvironmentAction} className="inline-form">
            <label>Name <input name="name" required maxLength={100} pattern="[A-Za-z0-9][A-Za-z0-9._:@+\-]{0,99}" placeholder="qa" /></label>
            <label>Position <input name="position" type="number" min={0} max={10000} className="num" placeholder="last" /></label>
            <label className="check-inline"><input type="checkbox" name="production" /> Production</label>
            <button type="submit" className="primary">Add environment</button>
          </form>
        </section>
      ) : (
        <p className="hint">Members and higher can change the pipeline.</p>
      )}
    </SettingsFrame>
  );
}
