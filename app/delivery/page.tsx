// Delivery: versions arriving in each environment and lead times between
// neighbours, from what ran when; two server-drawn charts, each with a table
// of the same numbers beside it. No client script.
import { AppShell } from "@/components/app-shell";
import { ChartFigure } from "@/components/ui/chart-figure";
import { DRIFT_KIND_LIST, DRIFT_LABEL } from "@/components/ui/drift";
import { FilterForm } from "@/components/ui/filter-form";
import { NothingReported } from "@/components/ui/nothing-reported";
import { formatAge } from "@/lib/domain/words";
import { formatShortDay, parseUtcDay } from "@/lib/render/dates";
import { renderArrivalsChart, renderDriftTrendChart } from "@/lib/render/charts";
import { requirePageSession } from "@/lib/http/context";
import { getDailyDrift } from "@/lib/services/insights/daily-drift";
import { getWeeklyArrivals } from "@/lib/services/insights/weekly-arrivals";
import { getDelivery } from "@/lib/services/insights/delivery";
import { listDeliveryServices } from "@/lib/services/insights/delivery-services";
import { hasAnyService } from "@/lib/services/services/has-any";

export const dynamic = "force-dynamic";
export const metadata = { title: "Delivery" };

const WINDOWS = { "7d": "last 7 days", "30d": "last 30 days", "90d": "last 90 days" } as const;
type WindowKey = keyof typeof WINDOWS;
const SHORT = { env: "Behind", upstream: "Newer", inconsistent: "Differ", declared: "Git", eol: "EOL" } as const;
const short = (day: string) => { const d = parseUtcDay(day); return d ? formatShortDay(d) : day; };

export default async function DeliveryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const raw = (await searchParams).window;
  const window: WindowKey = typeof raw === "string" && raw in WINDOWS ? (raw as WindowKey) : "30d";
  const [stats, arrivals, drift, anyService, arrived] = await Promise.all([getDelivery({ ctx, input: { window } }), getWeeklyArrivals({ ctx }), getDailyDrift({ ctx }), hasAnyService({ ctx }), listDeliveryServices({ ctx, input: { window } })]);
  if (!anyService) {
    return (
      <AppShell current="delivery" workspace={workspaceName} email={ctx.actor.email}>
        <div className="page-head"><div><h1>Delivery</h1></div></div>
        <NothingReported what="Delivery counts the versions that arrive in each environment, and how long they take from one to the next, from what agents report." workspace={workspaceName} baseUrl={ctx.config.baseUrl} />
      </AppShell>
    );
  }
  const arrivalsSvg = (width: number, suffix: string) => renderArrivalsChart(arrivals, { id: `dw-arrivals${suffix}`, theme: "auto", width, title: "Versions arrived per week and environment, last 12 weeks" });
  const driftSvg = (width: number, suffix: string) => renderDriftTrendChart(drift, { id: `dw-drift${suffix}`, theme: "auto", width, title: "Open drift per day by kind, last 30 days" });
  const total = stats.environments.reduce((n, e) => n + e.deploys, 0);

  return (
    <AppShell current="delivery" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Delivery</h1>
          <p className="muted">Computed from what ran when, not from CI: a deploy is a version arriving in an environment for the first time; lead time is how long it took from one environment to the next.</p>
        </div>
      </div>
      <FilterForm action="/delivery" label="Delivery window">
        <div className="filter">
          <label htmlFor="dl-window">Window</label>
          <select id="dl-window" name="window" defaultValue={window}>
            {(Object.keys(WINDOWS) as WindowKey[]).map((w) => <option key={w} value={w}>{WINDOWS[w]}</option>)}
          </select>
        </div>
      </FilterForm>

      <div className="stat-grid" role="list" aria-label={`Delivery, ${WINDOWS[window]}`}>
        <div className="card stat" role="listitem"><span className="stat-n">{total}</span><span className="stat-l">deploys, {WINDOWS[window]}</span></div>
        {stats.environments.map((e) => (
          <div key={e.environment} className="card stat" role="listitem"><a className="stat-n" href={`#arrived-${e.environment}`} aria-label={`${e.deploys} deploys into ${e.environment}: the services`}>{e.deploys}</a><span className="stat-l">into {e.environment}</span></div>
        ))}
      </div>

      <section className="card" aria-labelledby="arrived-h" data-testid="delivery-services">
        <h2 id="arrived-h">What arrived, {WINDOWS[window]}</h2>
        <table className="data compact">
          <caption className="sr">Services whose versions arrived, per environment, with how many versions</caption>
          <thead><tr><th scope="col">Environment</th><th scope="col">Services (versions that arrived)</th></tr></thead>
          <tbody>
            {arrived.map((e) => (
              <tr key={e.environment} id={`arrived-${e.environment}`}>
                <th scope="row">{e.environment}</th>
                <td>
                  {e.services.length === 0 ? <span className="muted">none</span> : e.services.map((s, i) => (
                    <span key={s.service}>{i > 0 ? ", " : ""}<a href={`/services/${encodeURIComponent(s.service)}?env=${encodeURIComponent(e.environment)}`}>{s.service}</a> ({s.deploys})</span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="card" aria-labelledby="lead-h">
        <h2 id="lead-h">Lead times, {WINDOWS[window]}</h2>
        <table className="data compact">
          <caption className="sr">Median lead time between neighbouring environments</caption>
          <thead><tr><th scope="col">From</th><th scope="col">To</th><th scope="col">Median</th><th scope="col">Versions</th></tr></thead>
          <tbody>
            {stats.lead_times.length === 0 ? <tr><td colSpan={4} className="muted">{stats.environments.length <= 1 ? "One environment only: nothing to measure." : "No version moved from one environment to the next in this window."}</td></tr> : stats.lead_times.map((l) => (
              <tr key={`${l.from_environment}/${l.to_environment}`}>
                <td>{l.from_environment}</td><td>{l.to_environment}</td>
                <td className="strong">{l.median_seconds === null ? <span className="muted">no samples</span> : formatAge(l.median_seconds * 1000)}</td>
                <td>{l.samples}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="card chart-card" aria-labelledby="arrivals-h">
        <h2 id="arrivals-h">Versions arrived per week, last 12 weeks</h2>
        <p className="muted chart-span">This chart always covers the last 12 weeks, whatever the window chosen above. <a href="#arrived-h">What arrived</a> names the services.</p>
        <div className="chart-with-table">
          <ChartFigure draw={arrivalsSvg} width={760} labelledBy="arrivals-h" />
          <div className="chart-table table-scroll" tabIndex={0} role="region" aria-label="Versions arrived per week, as a table">
            <table className="data compact">
              <caption>Per week and environment</caption>
              <thead><tr><th scope="col">Week of</th>{arrivals.environments.map((e) => <th key={e} scope="col">{e}</th>)}</tr></thead>
              <tbody>
                {[...arrivals.weeks].reverse().map((w) => (
                  <tr key={w.weekStart}><th scope="row">{short(w.weekStart)}</th>{arrivals.environments.map((e) => <td key={e}>{w.byEnvironment[e] ?? 0}</td>)}</tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>

      <section className="card chart-card" aria-labelledby="drift-h">
        <h2 id="drift-h">Open drift per day, last 30 days</h2>
        <p className="muted chart-span">This chart always covers the last 30 days, whatever the window chosen above. Each kind in the table links to the services that have it now, on the matrix.</p>
        <div className="chart-with-table">
          <ChartFigure draw={driftSvg} width={760} labelledBy="drift-h" />
          <div className="chart-table table-scroll" tabIndex={0} role="region" aria-label="Open drift per day, as a table">
            <table className="data compact">
              <caption>Open at the end of each day</caption>
              <thead><tr><th scope="col">Day</th>{DRIFT_KIND_LIST.map((k) => <th key={k} scope="col"><a href={`/?kind=${k}`} title={`${DRIFT_LABEL[k]}: the services on the matrix`}><span aria-hidden="true">{SHORT[k]}</span><span className="sr">{DRIFT_LABEL[k]}, on the matrix</span></a></th>)}</tr></thead>
              <tbody>
                {[...drift.days].reverse().map((d) => (
                  <tr key={d.date}><th scope="row">{short(d.date)}</th>{DRIFT_KIND_LIST.map((k) => <td key={k}>{d.byKind[k] ?? 0}</td>)}</tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>
    </AppShell>
  );
}
