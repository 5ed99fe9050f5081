// Promotions: versions that run in one environment and wait for the next,
// longest waiting first, with the releases a promotion would bring.
import { AppShell } from "@/components/app-shell";
import { Age, formatDay } from "@/components/ui/format";
import { NothingReported } from "@/components/ui/nothing-reported";
import { Pager } from "@/components/ui/pager";
import { requirePageSession } from "@/lib/http/context";
import { listPromotionsForWorkspace } from "@/lib/services/insights/promotions";
import { hasAnyService } from "@/lib/services/services/has-any";

export const dynamic = "force-dynamic";
export const metadata = { title: "Promotions" };

const MAX_RELEASES_SHOWN = 6;
const PAGE = 50;

export default async function PromotionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, workspaceName } = await requirePageSession();
  const [{ items }, anyService] = await Promise.all([listPromotionsForWorkspace({ ctx }), hasAnyService({ ctx })]);
  const now = ctx.now;
  const raw = (await searchParams).page;
  const pages = Math.max(1, Math.ceil(items.length / PAGE));
  const page = Math.min(Math.max(1, Number.parseInt(typeof raw === "string" ? raw : "1", 10) || 1), pages);
  return (
    <AppShell current="promotions" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Promotions</h1>
          <p className="muted">{items.length ? `${items.length} ${items.length === 1 ? "version waits" : "versions wait"}` : "Versions that run in one environment and wait"} for the next environment in the pipeline, longest waiting first.</p>
        </div>
      </div>
      {!anyService ? (
        <NothingReported what="Promotions lists the versions that run in one environment and wait for the next, once agents report what runs." workspace={workspaceName} baseUrl={ctx.config.baseUrl} />
      ) : items.length === 0 ? (
        <div className="card empty"><p>Nothing is waiting: every environment runs what the one before it runs.</p></div>
      ) : (
        <ol className="promotions">
          {items.slice((page - 1) * PAGE, page * PAGE).map((p) => (
            <li key={`${p.service}/${p.from_environment}/${p.to_environment}`} className="card promo">
              <div className="promo-head">
                <h2><a href={`/services/${encodeURIComponent(p.service)}`}>{p.service}</a></h2>
                <span className="promo-wait">waiting <Age at={p.waiting_since} now={now} /></span>
              </div>
              <p className="promo-move">
                <span className="env-chip">{p.from_environment}</span>
                <span className="v strong">{p.to_version}</span>
                <span aria-hidden="true" className="arrow">→</span>
                <span className="sr"> waits to move to </span>
                <span className="env-chip">{p.to_environment}</span>
                <span className="muted">which runs <span className="v">{p.from_version}</span></span>
              </p>
              {p.releases.length ? (
                <details>
                  <summary>{p.releases.length} {p.releases.length === 1 ? "release" : "releases"} this promotion brings</summary>
                  <ul className="promo-releases">
                    {p.releases.slice(-MAX_RELEASES_SHOWN).reverse().map((r) => (
                      <li key={r.version}>
                        <span className="v">{r.version}</span>
                        {r.published_at ? <span className="muted">{formatDay(r.published_at)}</span> : null}
                        {r.release_notes_url ? <a href={r.release_notes_url} rel="noreferrer">release notes<span className="sr"> for {r.version}</span></a> : null}
                      </li>
                    ))}
                    {p.releases.length > MAX_RELEASES_SHOWN ? <li className="muted">and {p.releases.length - MAX_RELEASES_SHOWN} older</li> : null}
                  </ul>
                </details>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <Pager page={page} pages={pages} total={items.length} href={(n) => (n > 1 ? `/promotions?page=${n}` : "/promotions")} />
    </AppShell>
  );
}
