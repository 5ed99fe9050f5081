// Users: who belongs to this workspace and with which role.
import { FlashMessage, readFlash } from "@/components/settings/flash";
import { SettingsFrame } from "@/components/settings/settings-frame";
import { formatWhen } from "@/components/ui/format";
import { requirePageSession } from "@/lib/http/context";
import { hasRole } from "@/lib/services/context";
import { listMembers } from "@/lib/services/members/list";
import { addMemberAction, changeRoleAction, removeMemberAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Users" };

const ROLES = [
  { value: "viewer", label: "viewer (reads)" },
  { value: "member", label: "member (acknowledges, edits policies)" },
  { value: "admin", label: "admin (settings, tokens, people)" },
  { value: "owner", label: "owner" },
] as const;

export default async function UsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const flash = await readFlash(searchParams);
  const canManage = hasRole(ctx.actor, "admin");
  const grantable = ROLES.filter((r) => hasRole(ctx.actor, r.value));
  // The member list is for members and up (the service refuses viewers): a viewer is told so, not shown an error.
  const members = hasRole(ctx.actor, "member") ? await listMembers({ ctx }) : null;
  return (
    <SettingsFrame current="users" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Users</h1>
          <p className="muted">People who can sign in to {workspaceName}, and what they may do. Scripts use API tokens instead.</p>
        </div>
      </div>
      <FlashMessage flash={flash} />
      {canManage ? (
        <div className="card">
          <form action={addMemberAction} className="inline-form" aria-label="Add a person">
            <label>E-mail <input name="email" type="email" required autoComplete="off" /></label>
            <label>
              Role
              <select name="role" defaultValue="member">
                {grantable.map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
              </select>
            </label>
            <label>First password <span className="hint">for a new person, 8+ characters</span><input name="password" type="password" autoComplete="new-password" minLength={8} /></label>
            <button type="submit" className="primary">Add</button>
          </form>
        </div>
      ) : (
        <p className="hint">Owners and admins add people and change roles.</p>
      )}
      {members === null ? (
        <p className="hint">Viewers do not see who else belongs to {workspaceName}; ask an admin.</p>
      ) : (
      <table className="data">
        <caption className="sr">Members of {workspaceName}</caption>
        <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Member since</th><th scope="col"><span className="sr">Actions</span></th></tr></thead>
        <tbody>
          {members.items.map((m) => (
            <tr key={m.email}>
              <th scope="row">{m.email}{m.you ? <span className="muted"> (you)</span> : null}</th>
              <td>
                {canManage ? (
                  <form action={changeRoleAction} className="inline-form">
                    <input type="hidden" name="email" value={m.email} />
                    <label className="sr" htmlFor={`role-${m.email}`}>Role of {m.email}</label>
                    <select id={`role-${m.email}`} name="role" defaultValue={m.role}>
                      {ROLES.map((r) => <option key={r.value} value={r.value} disabled={!grantable.some((g) => g.value === r.value)}>{r.value}</option>)}
                    </select>
                    <button type="submit" className="small" aria-label={`Change the role of ${m.email}`}>Change</button>
                  </form>
                ) : (
                  <span className="pill neutral">{m.role}</span>
                )}
              </td>
              <td className="nowrap">{formatWhen(m.since)}</td>
              <td>
                {canManage && !m.you ? (
                  <form action={removeMemberAction}>
                    <input type="hidden" name="email" value={m.email} />
                    <button type="submit" className="danger small" aria-label={`Remove ${m.email}`}>Remove</button>
                  </form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      )}
    </SettingsFrame>
  );
}
