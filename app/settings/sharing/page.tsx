import { FlashMessage, readFlash } from "@/components/settings/flash";
import { SettingsFrame } from "@/components/settings/settings-frame";
import { CopyButton } from "@/components/ui/copy-button";
import { requirePageSession } from "@/lib/http/context";
import { getCalendarAddress } from "@/lib/services/calendar/get-address";
import { hasRole } from "@/lib/services/context";
import { resetSharingKeyAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Calendar and badges" };

export default async function SharingPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const flash = await readFlash(searchParams);
  const isMember = hasRole(ctx.actor, "member");
  const calendar = isMember ? await getCalendarAddress({ ctx }) : null;
  return (
    <SettingsFrame current="sharing" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Calendar and badges</h1>
          <p className="muted">Addresses that load without signing in: the workspace calendar and the service badges. They are signed with one key.</p>
        </div>
      </div>
      <FlashMessage flash={flash} />
      <div className="grid">
        <section className="card" aria-labelledby="calendar-head">
          <h2 id="calendar-head">Calendar</h2>
          <p className="muted">Subscribe in any calendar application: the end-of-life dates of the cycles that run here, the day each new drift is first notified, and the day a put-off ends.</p>
          {calendar ? (
            <p>
              <code id="calendar-url" className="secret">{calendar.url}</code>{" "}
              <CopyButton text={calendar.url} label="Copy address" describedBy="calendar-url" />
            </p>
          ) : (
            <p className="alert" role="alert">Members and higher can copy the calendar address.</p>
          )}
        </section>
        <section className="card" aria-labelledby="reset-head">
          <h2 id="reset-head">Reset the addresses</h2>
          <p className="muted">A new key stops every badge and calendar address handed out so far, at once; copy the new ones from here and the service pages.</p>
          {hasRole(ctx.actor, "admin") ? (
            <form action={resetSharingKeyAction}>
              <button type="submit" className="danger">Reset badge and calendar addresses</button>
            </form>
          ) : (
            <p className="muted">Only owners and admins reset the key (or run <code>driftwatch badges reset</code>).</p>
          )}
        </section>
      </div>
    </SettingsFrame>
  );
}
