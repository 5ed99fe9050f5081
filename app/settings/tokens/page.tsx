import { SettingsFrame } from "@/components/settings/settings-frame";
import { requirePageSession } from "@/lib/http/context";
import { hasRole } from "@/lib/services/context";
import { listApiTokens } from "@/lib/services/api-tokens/list";
import { revokeTokenAction } from "./actions";
import { CreateTokenForm } from "./create-token-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "API tokens" };

const when = (iso: string | null) => (iso ? new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC" : "never");

export default async function TokensPage() {
  const { ctx, workspaceName } = await requirePageSession();
  const canManage = hasRole(ctx.actor, "admin");
  const tokens = canManage ? (await listApiTokens({ ctx })).items : [];
  return (
    <SettingsFrame current="tokens" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>API tokens</h1>
          <p className="muted">Tokens let scripts, the command line and assistants read Driftwatch (viewer) or also act on it (member). Send them as <code>Authorization: Bearer dw_…</code>.</p>
        </div>
      </div>
      {!canManage ? (
        <p className="alert" role="alert">Only owners and admins manage API tokens.</p>
      ) : (
        <div className="grid">
          <div className="card"><CreateTokenForm /></div>
          <table className="data">
            <caption className="skip-link">API tokens</caption>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span className="skip-link">Actions</span></th></tr>
            </thead>
            <tbody>
              {tokens.length === 0 ? (
                <tr><td colSpan={7} className="muted">No tokens yet.</td></tr>
              ) : (
                tokens.map((t) => (
                  <tr key={t.id}>
                    <td>{t.name}</td>
                    <td className="mono">{t.prefix}…</td>
                    <td>{t.role}</td>
                    <td>{when(t.created_at)}</td>
                    <td>{when(t.last_used_at)}</td>
                    <td>{t.revoked_at ? <span className="pill neutral">revoked</span> : <span className="pill ok">active</span>}</td>
                    <td>
                      {t.revoked_at ? null : (
                        <form action={revokeTokenAction}>
                          <input type="hidden" name="id" value={t.id} />
                          <button type="submit" className="danger" aria-label={`Revoke token ${t.name}`}>Revoke</button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
    </SettingsFrame>
  );
}
