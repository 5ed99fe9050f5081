// The monthly report: one printable page for one month of the workspace.
import { headers } from "next/headers";
import Link from "next/link";
import { AppShell } from "@/components/app-shell";
import { PdfLink } from "@/components/insights/pdf-link";
import { PrintButton } from "@/components/insights/print-button";
import { ArrivalsByService, ReleasesByService } from "@/components/insights/report-lists";
import { formatDay, formatWhen } from "@/components/ui/format";
import { NothingReported } from "@/components/ui/nothing-reported";
import { formatAge } from "@/lib/domain/words";
import { PAPER_LABEL, paperForLanguages } from "@/lib/domain/report/paper";
import { requirePageSession } from "@/lib/http/context";
import { cssString } from "@/lib/render/css-string";
import { canRenderPdf } from "@/lib/server/pdf";
import { currentMonth, getMonthlyReport, monthRange } from "@/lib/services/reports/get-monthly";
import { quietNotesByCell } from "@/components/matrix/cell-text";
import { QuietBanner } from "@/components/ui/quiet-banner";
import { getMatrix } from "@/lib/services/matrix/get";
import { listQuietTargets } from "@/lib/services/targets/list-quiet";

export const dynamic = "force-dynamic";
export const metadata = { title: "Monthly report" };

const KIND: Record<string, string> = { docker: "Docker", kubernetes: "Kubernetes", swarm: "Swarm", nomad: "Nomad", compose_git: "Compose in Git" };
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function monthTitle(month: string): string {
  const [y, m] = month.split("-");
  return `${MONTHS[Number(m) - 1] ?? m} ${y}`;
}

function shiftMonth(month: string, by: number): string {
  const range = monthRange(month)!;
  const d = new Date(Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth() + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

export default async function ReportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const sp = await searchParams;
  const now = ctx.now;
  const thisMonth = currentMonth(now);
  const month = typeof sp.month === "string" && monthRange(sp.month) && sp.month <= thisMonth ? sp.month : thisMonth;
  const [report, quiet, matrix] = await Promise.all([getMonthlyReport({ ctx, input: { month } }), listQuietTargets({ ctx }), getMatrix({ ctx, input: {} })]);
  // What quiet targets show is their last report: said on each line it touches.
  const quietNotes = quiet.targets.length ? quietNotesByCell(matrix.services, now) : new Map<string, string>();
  const quietNames = new Set(quiet.targets.map((t) => t.name));
  const serverPdf = canRenderPdf() && sp.pdf !== "unavailable";
  const deploys = report.delivery.environments.reduce((n, e) => n + e.deploys, 0);
  const paper = paperForLanguages((await headers()).get("accept-language"));
  const otherPaper = paper === "a4" ? "letter" : "a4";
  const arrived = report.arrivals.reduce((n, a) => n + a.items.length + a.more, 0);

  return (
    <AppShell current="report" workspace={workspaceName} email={ctx.actor.email}>
      <article className="report">
        {/* Every printed page names the workspace and month, and numbers itself. */}
        <style dangerouslySetInnerHTML={{ __html: `@page { @bottom-left { content: ${cssString(`Driftwatch monthly report · ${workspaceName} · ${monthTitle(month)}`)}; } }` }} />
        <header className="report-head">
          <div>
            <p className="eyebrow">Driftwatch monthly report · {workspaceName}</p>
            <h1>{monthTitle(month)}</h1>
            <p className="muted">Generated {formatWhen(report.generated_at)}. Deploys and releases count {monthTitle(month)}; what needs attention is as of now.</p>
          </div>
          <div className="report-actions no-print">
            <nav aria-label="Month" className="month-nav">
              <Link href={`/report?month=${shiftMonth(month, -1)}`} className="button small" rel="prev">← {monthTitle(shiftMonth(month, -1))}</Link>
              {month < thisMonth ? <Link href={`/report?month=${shiftMonth(month, 1)}`} className="button small" rel="next">{monthTitle(shiftMonth(month, 1))} →</Link> : null}
            </nav>
            {serverPdf ? (
              <PdfLink href={`/report/pdf?month=${month}&paper=${paper}`} paperLabel={PAPER_LABEL[paper]} other={{ href: `/report/pdf?month=${month}&paper=${otherPaper}`, label: PAPER_LABEL[otherPaper] }} />
            ) : <PrintButton />}
          </div>
        </header>

        <QuietBanner targets={quiet.targets} quietAfterMs={quiet.quietAfterMs} now={now} />
        <section aria-labelledby="r-summary" className="report-summary">
          <h2 id="r-summary" className="sr">Summary</h2>
          <div className="stat"><span className="stat-n">{report.services.total}</span><span className="stat-l">services</span></div>
          <div className="stat"><span className="stat-n">{report.targets.length}</span><span className="stat-l">targets</span></div>
          <div className="stat"><span className="stat-n">{deploys}</span><span className="stat-l">deploys</span></div>
          <div className="stat"><span className="stat-n">{report.releases.items.length + report.releases.more}</span><span className="stat-l">new upstream releases</span></div>
          <div className="stat"><span className={report.attention.items.length ? "stat-n bad" : "stat-n"}>{report.attention.items.length + report.attention.more}</span><span className="stat-l">need attention</span></div>
        </section>

        <section aria-labelledby="r-attention">
          <h2 id="r-attention">Needs attention now</h2>
          {report.services.total === 0 ? <NothingReported what="This report covers what agents report." workspace={workspaceName} baseUrl={ctx.config.baseUrl} /> : report.attention.items.length === 0 ? <p className="muted">Nothing: every service runs what its policy and the pipeline expect.</p> : (
            <table className="data compact report-attention">
              <caption className="sr">Most important first</caption>
              <thead><tr><th scope="col" className="num">#</th><th scope="col">What</th><th scope="col">Service</th><th scope="col">Environment</th><th scope="col">Detail</th><th scope="col">Since</th></tr></thead>
              <tbody>
                {report.attention.items.map((a, i) => (
                  <tr key={`${a.what}/${a.service}/${a.environment}`}><td className="num">{i + 1}</td><td className={a.rank <= 1 ? "strong bad-text nowrap" : "strong nowrap"}>{a.what}</td><td className="nowrap">{a.service}</td><td className="nowrap">{a.environment}</td><td className="mono small-text">{a.detail}{quietNotes.get(`${a.service}\0${a.environment}`) ? <span className="sub quiet-note">{quietNotes.get(`${a.service}\0${a.environment}`)}</span> : null}</td><td className="nowrap">{formatDay(a.since)}</td></tr>
                ))}
              </tbody>
            </table>
          )}
          {report.attention.more ? <p className="muted">And {report.attention.more} more; see Updates.</p> : null}
        </section>

        <section aria-labelledby="r-deploys">
          <h2 id="r-deploys">Deployed per environment</h2>
          <table className="data compact">
            <caption className="sr">Deploys and median lead times</caption>
            <thead><tr><th scope="col">Environment</th><th scope="col">Deploys</th><th scope="col">Median lead time from the previous environment</th></tr></thead>
            <tbody>
              {report.delivery.environments.map((e, i) => {
                const lead = i > 0 ? report.delivery.lead_times[i - 1] : undefined;
                return (
                  <tr key={e.environment}>
                    <th scope="row">{e.environment}</th><td>{e.deploys}</td>
                    <td>{lead ? (lead.median_seconds === null ? <span className="muted">no samples</span> : `${formatAge(lead.median_seconds * 1000)} from ${lead.from_environment} (${lead.samples} ${lead.samples === 1 ? "version" : "versions"})`) : <span className="muted">first in the pipeline</span>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {arrived ? <p className="muted">Each version that arrived is listed by service under <a href="#r-arrivals">Arrivals in detail</a>, at the end.</p> : null}
        </section>

        <section aria-labelledby="r-releases">
          <h2 id="r-releases">New upstream releases</h2>
          {report.releases.items.length === 0 ? <p className="muted">No new releases of the lines that run.</p> : <ReleasesByService items={report.releases.items} />}
          {report.releases.more ? <p className="muted">And {report.releases.more} more.</p> : null}
        </section>

        <section aria-labelledby="r-inventory" className="report-cols">
          <div>
            <h2 id="r-inventory">Services by team</h2>
            <table className="data compact">
              <caption className="sr">Services by team</caption>
              <thead><tr><th scope="col">Team</th><th scope="col">Services</th></tr></thead>
              <tbody>{report.services.by_team.map((t) => <tr key={t.team}><td>{t.team}</td><td>{t.count}</td></tr>)}</tbody>
            </table>
          </div>
          <div>
            <h2>Targets</h2>
            <table className="data compact report-targets">
              <caption className="sr">Targets</caption>
              <thead><tr><th scope="col">Target</th><th scope="col">Kind</th><th scope="col">Environment</th><th scope="col">Services</th></tr></thead>
              <tbody>{report.targets.map((t) => <tr key={t.name}><td>{t.name}{quietNames.has(t.name) ? <span className="sub quiet-note"><span className="pill warn">quiet</span> last report {formatWhen(t.last_report_at)}</span> : null}</td><td>{KIND[t.kind] ?? t.kind}</td><td>{t.environment}</td><td>{t.workloads}</td></tr>)}</tbody>
            </table>
          </div>
        </section>

        {arrived ? (
          <section aria-labelledby="r-arrivals">
            <h2 id="r-arrivals">Arrivals in detail</h2>
            <ArrivalsByService arrivals={report.arrivals} />
          </section>
        ) : null}
      </article>
    </AppShell>
  );
}
