// The matrix as a @tanstack/react-table model, built on the server: one
// column per environment in pipeline order, sorting, and pagination. With
// the default sort the page arrives already cut by getMatrix (manual
// pagination); other sorts need every matching row, sorted here.
import {
  createTable,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type ColumnDef,
  type SortingState,
  type Table,
  type TableOptionsResolved,
} from "@tanstack/react-table";
import { MatrixCellView, ServiceHeader, UpstreamView } from "./matrix-cell";
import type { MatrixCell, MatrixEnvironment, MatrixRow } from "./matrix-types";
import type { SortKey } from "./search-params";

export type { Matrix, MatrixCell, MatrixDriftDetail, MatrixEnvironment, MatrixRow, MatrixTarget, MatrixUpstream } from "./matrix-types";

const EOL_WEIGHT = { passed: 4, soon: 2, ok: 0 } as const;

/** How much a row needs looking at: drift markers, with end of life weighing most. */
export function attentionScore(row: MatrixRow): number {
  let score = 0;
  for (const cell of row.cells) {
    score += cell.drifts.length * 2 + (cell.eol ? EOL_WEIGHT[cell.eol.state] : 0);
    if (cell.drifts.includes("eol")) score += 1;
  }
  return score;
}

const byName = (a: MatrixRow, b: MatrixRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * "Needs attention first" follows the Updates page: a service comes where its first line
 * is there (`rank`: service → place, lines to act on before put-off ones); services with
 * no line follow, by their markers, then by name.
 */
export function attentionOrder(rank: ReadonlyMap<string, number> | undefined) {
  return (a: MatrixRow, b: MatrixRow): number => {
    const ra = rank?.get(a.name) ?? Number.POSITIVE_INFINITY;
    const rb = rank?.get(b.name) ?? Number.POSITIVE_INFINITY;
    if (ra !== rb) return ra < rb ? -1 : 1;
    return attentionScore(b) - attentionScore(a) || byName(a, b);
  };
}

/** Each service's place in the Updates order: its first line to act on, else its first put-off line after all of those. */
export function attentionRank(updates: { items: readonly { service: string }[]; acknowledged: readonly { service: string }[] }): Map<string, number> {
  const rank = new Map<string, number>();
  [...updates.items, ...updates.acknowledged].forEach((line, i) => {
    if (!rank.has(line.service)) rank.set(line.service, i);
  });
  return rank;
}

function columns(environments: readonly MatrixEnvironment[], now: Date, rank: ReadonlyMap<string, number> | undefined): ColumnDef<MatrixRow>[] {
  return [
    {
      id: "service",
      accessorFn: (row) => row.name,
      header: "Service",
      sortingFn: (a, b) => byName(a.original, b.original),
      cell: ({ row }) => <ServiceHeader row={row.original} />,
    },
    ...environments.map<ColumnDef<MatrixRow>>((env) => ({
      id: `env:${env.name}`,
      header: env.name,
      accessorFn: (row) => row.cells.find((c) => c.environment === env.name) ?? null,
      enableSorting: false,
      // The column's name rides on each cell for the narrow layout, where each row is a card.
      cell: ({ getValue, row }) => <MatrixCellView cell={getValue<MatrixCell | null>()} service={row.original.name} now={now} newest={row.original.upstream.newest} data-label={env.name} />,
    })),
    {
      id: "upstream",
      header: "Upstream newest",
      accessorFn: (row) => row.upstream.newest,
      enableSorting: false,
      cell: ({ row }) => <UpstreamView row={row.original} now={now} data-label="Upstream newest" />,
    },
    // Sort keys without a column of their own.
    {
      id: "team",
      accessorFn: (row) => row.team ?? "",
      sortingFn: (a, b) => (a.original.team ?? "~").localeCompare(b.original.team ?? "~") || byName(a.original, b.original),
    },
    {
      id: "attention",
      accessorFn: attentionScore,
      // Ascending in the Updates order: most urgent first.
      sortingFn: (a, b) => attentionOrder(rank)(a.original, b.original),
    },
  ];
}

const SORTING: Record<SortKey, SortingState> = {
  name: [{ id: "service", desc: false }],
  "-name": [{ id: "service", desc: true }],
  team: [{ id: "team", desc: false }],
  attention: [{ id: "attention", desc: false }],
};

/** True when getMatrix's own order (by name) and its limit/offset give the page directly. */
export function isServerPaged(sort: SortKey): boolean {
  return sort === "name";
}

export function buildMatrixTable(input: {
  rows: MatrixRow[];
  environments: readonly MatrixEnvironment[];
  sort: SortKey;
  /** 0-based. */
  pageIndex: number;
  pageSize: number;
  /** Rows matching the filters, when `rows` holds only this page. */
  total: number;
  now: Date;
  /** The Updates order (attentionRank), for "Needs attention first". */
  attentionRank?: ReadonlyMap<string, number>;
}): Table<MatrixRow> {
  const serverPaged = isServerPaged(input.sort);
  const options: TableOptionsResolved<MatrixRow> = {
    data: input.rows,
    columns: columns(input.environments, input.now, input.attentionRank),
    getRowId: (row) => row.name,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    manualSorting: serverPaged,
    manualPagination: serverPaged,
    rowCount: serverPaged ? input.total : undefined,
    state: {},
    onStateChange: () => {},
    renderFallbackValue: null,
  };
  const table = createTable(options);
  table.setOptions((prev) => ({
    ...prev,
    state: {
      ...table.initialState,
      sorting: SORTING[input.sort],
      pagination: { pageIndex: input.pageIndex, pageSize: input.pageSize },
      columnVisibility: { team: false, attention: false },
    },
  }));
  return table;
}
