// Drift kinds as the pages show them: a small coloured marker with a glyph
// (so colour is never the only cue) and a text alternative, plus a legend.
// Client components use it too, so it imports only types from the domain (no zod in the browser).
import type { DriftKind } from "@/lib/domain/policy";
import { DRIFT_KIND_NAME, DRIFT_STATE_NAME } from "@/lib/domain/words";

/** Labels in the spec's order; DRIFT_KIND_LIST follows it. */
export const DRIFT_LABEL: Readonly<Record<DriftKind, string>> = DRIFT_KIND_NAME;

export const DRIFT_KIND_LIST = Object.keys(DRIFT_LABEL) as DriftKind[];

export const DRIFT_HELP: Record<DriftKind, string> = {
  upstream: "A newer release is out that the policy alerts on.",
  env: "Runs an older version than the environment before it.",
  inconsistent: "Targets of this environment run different versions.",
  declared: "What runs differs from what the Compose files in Git declare.",
  eol: "The release cycle reaches end of life within 60 days, or has.",
};

const GLYPH: Record<DriftKind, string> = { upstream: "↑", env: "←", inconsistent: "≠", declared: "G", eol: "!" };

/** Kinds in the spec's order, most alarming last in the list but first in a cell. */
const CELL_ORDER: DriftKind[] = ["eol", "declared", "inconsistent", "env", "upstream"];

export function DriftMarker({ kind }: { kind: DriftKind }) {
  const label = DRIFT_LABEL[kind];
  return (
    <span className={`dk dk-${kind}`} role="img" aria-label={label} title={label}>
      {GLYPH[kind]}
    </span>
  );
}

export function DriftMarkers({ kinds }: { kinds: readonly DriftKind[] }) {
  if (kinds.length === 0) return null;
  return (
    <>
      {CELL_ORDER.filter((k) => kinds.includes(k)).map((k) => (
        <DriftMarker key={k} kind={k} />
      ))}
    </>
  );
}

/** A pill naming the kind, for lists where there is room for words. */
export function DriftPill({ kind }: { kind: DriftKind }) {
  return (
    <span className={`pill kind kind-${kind}`}>
      <span className={`dk dk-${kind}`} aria-hidden="true">{GLYPH[kind]}</span>
      {DRIFT_LABEL[kind]}
    </span>
  );
}

/** `extended`: also what the matrix draws besides kinds (outlined markers, quiet cells). */
export function DriftLegend({ extended = false }: { extended?: boolean } = {}) {
  return (
    <ul className="legend" aria-label="Drift kinds">
      {DRIFT_KIND_LIST.map((k) => (
        <li key={k} title={DRIFT_HELP[k]}>
          <span className={`dk dk-${k}`} aria-hidden="true">{GLYPH[k]}</span>
          {DRIFT_LABEL[k]}
        </li>
      ))}
      <li title="The environment has only Compose files in Git: the version shown is declared, not observed.">
        <span className="git" aria-hidden="true">Git</span>
        Declared only
      </li>
      {extended ? (
        <>
          <li>
            <i className="k-upstream calm" aria-hidden="true" />
            Outlined: {DRIFT_STATE_NAME.open} (within its alert delay)
          </li>
          <li>
            <span className="quiet-swatch" aria-hidden="true" />
            Grey: quiet target, its last report shown with its age
          </li>
        </>
      ) : null}
    </ul>
  );
}
