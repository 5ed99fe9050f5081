// Delivery: versions arriving in each environment and lead times between
// neighbours, from what ran when; two server-drawn charts, each with a table
// of the same numbers beside it. No client script.
import { AppShell } from "@/components/app-shell";
import { ChartFigure } from "@/components/ui/chart-figure";
import { DRIFT_KIND_LIST, DRIFT_LABEL } from "@/components/ui/drift";
import { FilterForm } from "@/components/ui/filter-form";
import { humanizeDuration } from "@/lib/domain/duration";
import { formatShortDay, parseUtcDay } from "@/lib/render/dates";
import { renderArrivalsChart, renderDriftTrendChart } from "@/lib/render/charts";
import { requirePageSession } from "@/lib/http/context";
import { getDailyDrift } from "@/lib/services/insights/daily-drift";
import { getWeeklyArrivals } from "@/lib/services/insights/weekly-arrivals";
import { getDelivery } from "@/lib/services/insights/delivery";

export const dynamic = "force-dynamic";
export const metadata = { title: "Delivery" };

const WINDOWS = { "7d": "last 7 days", "30d": "last 30 days", "90d": "last 90 days" } as const;
type WindowKey = keyof typeof WINDOWS;
const SHORT = { env: "Env", upstream: "Upstr.", inconsistent: "Incons.", declared: "Git", eol: "EOL" } as const;
const short = (day: string) => { const d = parseUtcDay(day); return d ? formatShortDay(d) : day; };

export default async function DeliveryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const raw = (await searchParams).window;
  const window: WindowKey = typeof raw === "string" && raw in WINDOWS ? (raw as WindowKey) : "30d";
  const [stats, arrivals, drift] = await Promise.all([getDelivery({ ctx, input: { window } }), getWeeklyArrivals({ ctx }), getDailyDrift({ ctx })]);
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
          <div key={e.environment} className="card stat" role="listitem"><span className="stat-n">{e.deploys}</span><span className="stat-l">into {e.environment}</span></div>
        ))}
      </div>

      <section className="card" aria-labelledby="lead-h">
        <h2 id="lead-h">Lead times, {WINDOWS[window]}</h2>
        <table className="data compact">
          <caption className="sr">Median lead time between neighbouring environments</caption>
          <thead><tr><th scope="col">From</th><th scope="col">To</th><th scope="col">Median</th><th scope="col">Versions</th></tr></thead>
          <tbody>
            {stats.lead_times.length === 0 ? <tr><td colSpan={4} className="muted">One environment only: nothing to measure.</td></tr> : stats.lead_times.map((l) => (
              <tr key={`${l.from_environment}/${l.to_environment}`}>
                <td>{l.from_environment}</td><td>{l.to_environment}</td>
                <td className="strong">{l.median_seconds === null ? <span className="muted">no samples</span> : humanizeDuration(l.median_seconds * 1000)}</td>
                <td>{l.samples}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="card chart-card" aria-labelledby="arrivals-h">
        <h2 id="arrivals-h">Versions arrived per week, last 12 weeks</h2>
        <p className="muted chart-span">This chart always covers the last 12 weeks, whatever the window chosen above.</p>
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
        <p className="muted chart-span">This chart always covers the last 30 days, whatever the window chosen above.</p>
        <div className="chart-with-table">
          <ChartFigure draw={driftSvg} width={760} labelledBy="drift-h" />
          <div className="chart-table table-scroll" tabIndex={0} role="region" aria-label="Open drift per day, as a table">
            <table className="data compact">
              <caption>Open at the end of each day</caption>
              <thead><tr><th scope="col">Day</th>{DRIFT_KIND_LIST.map((k) => <th key={k} scope="col"><span aria-hidden="true">{SHORT[k]}</span><span className="sr">{DRIFT_LABEL[k]}</span></th>)}</tr></thead>
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
