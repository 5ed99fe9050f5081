// Badges: the state each badge shows now and why, the rules that choose a
// state, and (for members and higher) the signed addresses to embed.
import { CopyButton } from "@/components/ui/copy-button";
import { BADGE_NOTES, BADGE_RULES, BADGE_STATE_TEXT, type BadgeState } from "@/lib/render/badge-state";
import type { BadgeAddress } from "@/lib/services/badges/keys";
import type { BadgeView } from "@/lib/services/badges/views";

const PILL: Record<BadgeState, string> = { up_to_date: "ok", behind: "warn", attention: "bad", unknown: "neutral" };

export function BadgeStatePill({ state }: { state: BadgeState }) {
  return <span className={`pill ${PILL[state]}`}>{BADGE_STATE_TEXT[state]}</span>;
}

export function BadgesCard({ views, addresses, workspace }: { views: BadgeView[]; addresses: BadgeAddress[] | null; workspace: string }) {
  return (
    <section className="card" aria-labelledby="badges-h">
      <h2 id="badges-h">Badges</h2>
      <div className="badges-layout">
      <div>
      <table className="data compact">
        <caption className="sr">Badge state per environment</caption>
        <thead><tr><th scope="col">Badge</th><th scope="col">State, and why</th>{addresses ? <th scope="col">Markdown</th> : null}</tr></thead>
        <tbody>
          {views.map((v) => {
            const address = addresses?.find((a) => a.environment === v.environment);
            return (
              <tr key={v.environment ?? "*"}>
                <td>
                  {address ? (
                    // The real badge, loaded as a README would load it.
                    // eslint-disable-next-line @next/next/no-img-element
                    <img src={address.url} alt={`${v.label}: ${v.version ? `${v.version}, ` : ""}${BADGE_STATE_TEXT[v.state]}`} height={20} className="badge-img" />
                  ) : (
                    <span>{v.environment ?? "All environments"}</span>
                  )}
                  <span className="sub">{v.environment ?? "all environments"}</span>
                </td>
                <td className="why"><BadgeStatePill state={v.state} /> {v.rule ? v.rule.when : "Nothing runs here yet."}{v.note ? <span className="sub">{v.note}</span> : null}</td>
                {addresses ? (
                  <td>{address ? <CopyButton text={address.markdown} label="Copy markdown" copiedLabel="Markdown copied" /> : null}</td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {addresses ? (
        <details className="addresses">
          <summary>Badge addresses</summary>
          <ul>
            {addresses.map((a) => (
              <li key={a.environment ?? "*"}>
                <span className="muted">{a.environment ?? "All environments"}</span>
                <code className="secret" data-testid={`badge-url-${a.environment ?? "all"}`}>{a.url}</code>
              </li>
            ))}
          </ul>
          <p className="hint">Anyone with an address can load its badge; no sign-in. <code>npx driftwatch badges reset --workspace {workspace}</code> invalidates every address at once.</p>
        </details>
      ) : (
        <p className="hint">Members and higher see the badge addresses here.</p>
      )}
      </div>
      <div className="badge-rules">
        <h3 id="badge-rules-h">How a badge chooses its state</h3>
        <p className="hint">The first rule that applies decides.</p>
        <ol aria-labelledby="badge-rules-h">
          {BADGE_RULES.map((r) => (
            <li key={r.id}><BadgeStatePill state={r.state} /> {r.when}</li>
          ))}
        </ol>
        <ul className="notes">{BADGE_NOTES.map((n) => <li key={n}>{n}</li>)}</ul>
      </div>
      </div>
    </section>
  );
}
