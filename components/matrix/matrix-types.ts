// What the matrix components read, in the API's field names. The services'
// matrix result is passed as is; fields marked optional are not supplied by
// every caller yet, and the components say less when they are missing.
import type { DriftKind } from "@/lib/domain/policy";
import type { UpstreamState } from "@/lib/domain/upstream";

export type MatrixEnvironment = { name: string; position: number; production: boolean };

export type MatrixTarget = {
  name: string;
  tag: string;
  /** Exact version; null while a moving tag is unresolved. */
  version: string | null;
  digest?: string | null;
  since?: string;
  /** From Compose in Git rather than a runtime. */
  declared?: boolean;
  /** The target's last accepted report (RFC 3339). */
  last_seen_at?: string | null;
  /** quiet: no report for longer than DRIFTWATCH_QUIET_AFTER. */
  state?: "reporting" | "quiet";
};

/** One unresolved drift of a cell, for its marker's tooltip. */
export type MatrixDriftDetail = {
  kind: DriftKind;
  state: "open" | "announced";
  /** When the difference began (RFC 3339). */
  opened_at: string;
  announced_at?: string | null;
  running?: string | null;
  expected?: string | null;
  silenced?: boolean;
};

export type MatrixCell = {
  environment: string;
  tag: string;
  version: string | null;
  /** `1.27 = 1.27.3` for a resolved moving tag, else the tag. */
  display: string;
  declared: boolean;
  targets: MatrixTarget[];
  drifts: DriftKind[];
  eol: { product: string; cycle: string; eol_date: string | null; state: "ok" | "soon" | "passed" } | null;
  /** Per drift kind: state and dates. Without it a marker's tooltip names the kind only. */
  drift_details?: MatrixDriftDetail[];
  /** Every target that runs the cell's versions is quiet: what it shows is a last report, not live. */
  quiet?: boolean;
  last_seen_at?: string | null;
};

export type MatrixUpstream = {
  repository: string | null;
  newest: string | null;
  /** Last successful check (RFC 3339). */
  checked_at: string | null;
  checked_by?: "server" | "agent" | null;
  state?: UpstreamState;
  /** One line, when the state is failed or stale. */
  error?: string | null;
};

export type MatrixRow = {
  name: string;
  /** "chart": a Helm release's own service, named `chart:<release>`. */
  kind?: "image" | "chart";
  team: string | null;
  application?: string | null;
  upstream: MatrixUpstream;
  cells: MatrixCell[];
};

export type Matrix = { environments: MatrixEnvironment[]; services: MatrixRow[]; total: number };
