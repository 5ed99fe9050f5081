// The matrix: every service × every environment in pipeline order, with drift
// and end of life. Filters, sort and page live in the URL; the table is drawn
// on the server and needs no script.
import Link from "next/link";
import { redirect } from "next/navigation";
import { AppShell } from "@/components/app-shell";
import { DemoOffer } from "@/components/demo/demo-offer";
import { MatrixFilters } from "@/components/matrix/matrix-filters";
import { attentionRank, buildMatrixTable, isServerPaged } from "@/components/matrix/matrix-model";
import { MatrixTable } from "@/components/matrix/matrix-table";
import { Pagination } from "@/components/matrix/pagination";
import { hasFilters, matrixHref, pageSizeFor, parseMatrixParams, SORTS } from "@/components/matrix/search-params";
import { DriftLegend, DRIFT_LABEL } from "@/components/ui/drift";
import { QuietBanner } from "@/components/ui/quiet-banner";
import { RegistryBanner } from "@/components/ui/registry-banner";
import { DEMO_WORKSPACE } from "@/lib/domain/demo/plan";
import { requirePageSession } from "@/lib/http/context";
import { hasRole } from "@/lib/services/context";
import { listUpdates } from "@/lib/services/insights/updates";
import { getMatrix } from "@/lib/services/matrix/get";
import { getMatrixSummary, type MatrixSummary } from "@/lib/services/matrix/get-with-summary";
import { listQuietTargets } from "@/lib/services/targets/list-quiet";
import { countEnvironments } from "@/lib/services/matrix/count-environments";
import { listTeams } from "@/lib/services/matrix/list-teams";
import { listFailingRegistries } from "@/lib/services/upstream/failing-registries";

export const dynamic = "force-dynamic";
// The root layout's title template applies to child segments only, not to this page beside it.
export const metadata = { title: { absolute: "Matrix · Driftwatch" } };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function MatrixPage({ searchParams }: { searchParams: SearchParams }) {
  const { ctx, workspaceName } = await requirePageSession();
  const params = parseMatrixParams(await searchParams);
  const serverPaged = isServerPaged(params.sort);
  const pageSize = pageSizeFor(await countEnvironments({ ctx }));
  const query = {
    ...(params.team ? { team: params.team } : {}),
    ...(params.env ? { environment: params.env } : {}),
    ...(params.kind ? { kind: params.kind } : {}),
    ...(params.q ? { q: params.q } : {}),
    ...(serverPaged ? { limit: pageSize, offset: (params.page - 1) * pageSize } : {}),
  };
  const [matrix, teams, failing, summary, quiet, updates] = await Promise.all([
    getMatrix({ ctx, input: query }), listTeams({ ctx }), listFailingRegistries({ ctx }), getMatrixSummary({ ctx }), listQuietTargets({ ctx }),
    params.sort === "attention" ? listUpdates({ ctx, input: {} }) : null,
  ]);
  const pages = Math.max(1, Math.ceil(matrix.total / pageSize));
  if (params.page > pages) redirect(matrixHref(params, { page: pages }));

  const table = buildMatrixTable({ rows: matrix.services, environments: matrix.environments, sort: params.sort, pageIndex: params.page - 1, pageSize, total: matrix.total, now: ctx.now,
    ...(updates ? { attentionRank: attentionRank(updates) } : {}) });
  const filters = [
    params.q && `name contains “${params.q}”`,
    params.team && `team ${params.team}`,
    params.env && `running in ${params.env}`,
    params.kind && `${DRIFT_LABEL[params.kind].toLowerCase()} drift`,
  ].filter(Boolean);
  const caption = `Versions per service and environment${filters.length ? `, ${filters.join(", ")}` : ""}; sorted by ${SORTS[params.sort].toLowerCase()}; page ${params.page} of ${pages}.`;
  const isEmptyWorkspace = matrix.total === 0 && !hasFilters(params);

  return (
    <AppShell current="matrix" workspace={workspaceName} email={ctx.actor.email}>
      <div className="page-head">
        <div>
          <h1>Matrix</h1>
          <p className="muted">
            {isEmptyWorkspace
              ? "Which version of each service runs where."
              : `${matrix.total.toLocaleString("en")} ${matrix.total === 1 ? "service" : "services"}${filters.length ? " match" : ""} across ${matrix.environments.length} ${matrix.environments.length === 1 ? "environment" : "environments"}, in pipeline order.`}
          </p>
        </div>
      </div>
      {isEmptyWorkspace ? null : <SummaryLine summary={summary} />}
      <RegistryBanner registries={failing} />
      <QuietBanner targets={quiet.targets} quietAfterMs={quiet.quietAfterMs} now={ctx.now} />
      {isEmptyWorkspace ? (
        <div className="card empty">
          <h2>No services yet</h2>
          <p>Driftwatch fills this matrix from what your agents report. In this checkout, create an agent key and run an agent on the local Docker Engine:</p>
          <pre className="code" tabIndex={0}>{`KEY=$(npx driftwatch agent create --workspace ${workspaceName} --name edge-1)\nnpx driftwatch agent --url ${ctx.config.baseUrl} --key "$KEY" --environment production`}</pre>
          <p className="muted">Or declare what should run with a <Link href="/settings/compose">Compose-in-Git target</Link>.</p>
          {hasRole(ctx.actor, "admin") && workspaceName !== DEMO_WORKSPACE ? <DemoOffer from="inside" /> : null}
        </div>
      ) : (
        <>
          <MatrixFilters params={params} teams={teams} environments={matrix.environments.map((e) => e.name)} />
          <div className="matrix-bar">
            <DriftLegend extended />
          </div>
          {matrix.total === 0 ? (
            <div className="card empty">
              <h2>No services match</h2>
              <p>Nothing matches {filters.join(", ")}. <a href={matrixHref({ ...params, q: "", team: "", env: "", kind: "", page: 1 })}>Clear the filters</a>.</p>
            </div>
          ) : (
            <>
              <MatrixTable table={table} environments={matrix.environments} caption={caption} />
              <Pagination params={params} total={matrix.total} pageSize={pageSize} />
            </>
          )}
        </>
      )}
    </AppShell>
  );
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** How the matrix's markers relate to the lists: each count is the length of the list it links to. */
function SummaryLine({ summary }: { summary: MatrixSummary }) {
  return (
    <ul className="summary-line" aria-label="Summary" data-testid="matrix-summary">
      <li><Link href="/updates">{plural(summary.to_act_on, "to act on", "to act on")}</Link></li>
      <li><Link href="/delivery#drift-h">{plural(summary.open_drifts, "open drift", "open drifts")}</Link></li>
      <li><Link href="/promotions">{plural(summary.promotions_waiting, "promotion waiting", "promotions waiting")}</Link></li>
      {summary.quiet_targets > 0 ? <li><Link href="/settings/agents">{plural(summary.quiet_targets, "quiet target", "quiet targets")}</Link></li> : null}
    </ul>
  );
}
