// Notification rules: which events go where, with a test send for each.
import { FlashMessage, readFlash } from "@/components/settings/flash";
import { SettingsFrame } from "@/components/settings/settings-frame";
import { DRIFT_LABEL } from "@/components/ui/drift";
import { CHANNELS, channelDefinition, isChannel } from "@/lib/adapters/channels";
import { requirePageSession } from "@/lib/http/context";
import { hasRole } from "@/lib/services/context";
import { listRules } from "@/lib/services/notification-rules/list";
import { deleteRuleAction, toggleRuleAction } from "./actions";
import { GATE_REFUSED_NAME, inSentence } from "@/lib/domain/words";
import { RuleForm } from "./rule-form";
import { TestSendButton } from "./test-send-button";

export const dynamic = "force-dynamic";
export const metadata = { title: "Notifications" };

const EVENT = { drift_detected: "drift detected", drift_resolved: "drift resolved", upgrade_plan: "weekly upgrade plan", gate_refused: inSentence(GATE_REFUSED_NAME) } as const;

function destination(config: Record<string, unknown>): string {
  if (typeof config.url === "string") return typeof config.topic === "string" ? `${config.url} · ${config.topic}` : config.url;
  if (typeof config.homeserver === "string") return `${config.homeserver} · ${String(config.room_id ?? "")}`;
  if (typeof config.chat_id === "string") return `chat ${config.chat_id}`;
  if (typeof config.routing_key === "string") return typeof config.events_url === "string" ? config.events_url : "PagerDuty Events API v2";
  if (Array.isArray(config.to)) return config.to.join(", ");
  return "—";
}

export default async function NotificationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const flash = await readFlash(searchParams);
  const isMember = hasRole(ctx.actor, "member");
  const rules = isMember ? (await listRules({ ctx })).items : [];
  return (
    <SettingsFrame current="notifications" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Notifications</h1>
          <p className="muted">A drift is notified once it has lasted its alert delay; rules send it, its resolution, and the weekly upgrade plan where your team looks. Acknowledgements quiet them.</p>
        </div>
      </div>
      <FlashMessage flash={flash} />
      {!isMember ? (
        <p className="alert" role="alert">Members and higher manage notification rules.</p>
      ) : (
        <>
          {rules.length === 0 ? (
            <div className="card empty"><p>No rules yet: nothing is sent. Add one below, then send a test.</p></div>
          ) : (
            <ul className="rules-list">
              {rules.map((r) => (
                <li key={r.id} className="card">
                  <div className="rule-head">
                    <h2>{r.name}</h2>
                    <span className="pill neutral">{isChannel(r.channel) ? channelDefinition(r.channel).label : r.channel}</span>
                    {r.enabled ? <span className="pill ok">on</span> : <span className="pill neutral">off</span>}
                    {r.allow_private ? <span className="pill warn">private destination allowed</span> : null}
                  </div>
                  <dl className="facts">
                    <dt>Destination</dt><dd className="mono">{destination(r.config)}</dd>
                    <dt>Events</dt><dd>{(r.events.length ? r.events : (["drift_detected", "drift_resolved"] as const)).map((e) => EVENT[e]).join(", ")}</dd>
                    <dt>Only for</dt>
                    <dd>
                      {[
                        r.kinds.length ? r.kinds.map((k) => DRIFT_LABEL[k].toLowerCase()).join(", ") : null,
                        r.services.length ? `services ${r.services.join(", ")}` : null,
                        r.environments.length ? `environments ${r.environments.join(", ")}` : null,
                        r.teams.length ? `teams ${r.teams.join(", ")}` : null,
                      ].filter(Boolean).join("; ") || "everything"}
                    </dd>
                  </dl>
                  <div className="rule-actions">
                    <TestSendButton id={r.id} name={r.name} />
                    <form action={toggleRuleAction}>
                      <input type="hidden" name="id" value={r.id} />
                      <input type="hidden" name="enabled" value={r.enabled ? "false" : "true"} />
                      <button type="submit" className="small">{r.enabled ? "Switch off" : "Switch on"}</button>
                    </form>
                    <form action={deleteRuleAction}>
                      <input type="hidden" name="id" value={r.id} />
                      <input type="hidden" name="name" value={r.name} />
                      <button type="submit" className="small danger" aria-label={`Delete rule ${r.name}`}>Delete</button>
                    </form>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <section className="card" aria-labelledby="add-rule-h">
            <h2 id="add-rule-h">Add a rule</h2>
            <RuleForm canAllowPrivate={hasRole(ctx.actor, "admin")} channels={CHANNELS.map((id) => { const d = channelDefinition(id); return { id, label: d.label, help: d.help, fields: d.fields }; })} />
          </section>
        </>
      )}
    </SettingsFrame>
  );
}
