// The monthly report's long lists, folded to one row per service so a
// month of a busy workspace still prints in a few pages: new releases, and
// the versions that arrived in each environment.
import { formatAge } from "@/lib/domain/words";
import { formatShortDay, formatUtcDate } from "@/lib/render/dates";
import type { MonthlyReport } from "@/lib/services/reports/get-monthly";

type Release = MonthlyReport["releases"]["items"][number];
type Arrivals = MonthlyReport["arrivals"];

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** A version with its day, kept on one line. */
function VersionOn({ version, at, title }: { version: string; at: string; title?: string }) {
  const d = new Date(at);
  return (
    <span className="vday" title={title}>
      <span className="v">{version}</span> <time dateTime={formatUtcDate(d)}>{formatShortDay(d)}</time>
    </span>
  );
}

export function ReleasesByService({ items }: { items: readonly Release[] }) {
  const byService = groupBy(items, (r) => r.service);
  return (
    <table className="data compact report-folded">
      <caption className="sr">Releases of what runs, first seen this month, by service</caption>
      <thead><tr><th scope="col">Service</th><th scope="col">Releases, newest first</th></tr></thead>
      <tbody>
        {[...byService].map(([service, releases]) => (
          <tr key={service}>
            <th scope="row">{service}</th>
            <td>
              {releases.map((r) => (
                <span key={r.version} className="vday-item">
                  <VersionOn version={r.version} at={r.date} />
                  {r.release_notes_url ? <> <a href={r.release_notes_url} rel="noreferrer">notes<span className="sr"> for {service} {r.version}</span></a></> : null}
                </span>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ArrivalsByService({ arrivals }: { arrivals: Arrivals }) {
  const environments = arrivals.map((a) => a.environment);
  const services = [...new Set(arrivals.flatMap((a) => a.items.map((x) => x.service)))].sort((a, b) => a.localeCompare(b));
  const cell = new Map(arrivals.map((a) => [a.environment, groupBy(a.items, (x) => x.service)] as const));
  const more = arrivals.filter((a) => a.more > 0);
  return (
    <>
      <table className="data compact report-folded report-arrivals">
        <caption className="sr">Versions that arrived in each environment this month, by service, with the day they arrived</caption>
        <thead><tr><th scope="col">Service</th>{environments.map((e) => <th key={e} scope="col">{e}</th>)}</tr></thead>
        <tbody>
          {services.map((service) => (
            <tr key={service}>
              <th scope="row">{service}</th>
              {environments.map((env) => (
                <td key={env} data-label={env}>
                  {(cell.get(env)?.get(service) ?? []).map((x) => (
                    <span key={x.version} className="vday-item">
                      <VersionOn version={x.version} at={x.at} title={x.lead_seconds === null ? undefined : `${formatAge(x.lead_seconds * 1000)} after ${x.from_environment}`} />
                    </span>
                  ))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {more.map((a) => <p key={a.environment} className="muted">And {a.more} more in {a.environment}.</p>)}
    </>
  );
}
