// Inputs and outputs of drift detection and the drift lifecycle. The caller
// reads these from the database; everything in lib/domain/drift is pure.
import type { DriftKind, EffectivePolicy } from "@/lib/domain/policy";

export type EnvironmentInfo = { id: string; name: string; position: number; production: boolean };

/** One open history row: what runs (or is declared) now on one target. */
export type CurrentRun = {
  serviceId: string;
  environmentId: string;
  targetId: string;
  targetName: string;
  tag: string;
  /** Exact version; null when a moving tag is unresolved. */
  version: string | null;
  digest: string | null;
  since: Date;
  /** From Compose in Git. */
  declared: boolean;
};

/** A closed or open history row, for "when did this begin" and delivery statistics. */
export type HistoryRun = CurrentRun & { to: Date | null };

export type UpstreamInfo = {
  tags: readonly string[];
  /** tag -> when first seen upstream. */
  firstSeen: ReadonlyMap<string, Date>;
  /** tag -> the forge's publication date; read only for policies with a minimum release age. */
  published?: ReadonlyMap<string, Date>;
};

export type EolCycleInfo = { product: string; cycle: string; eolDate: Date | null };

export type ServiceInput = {
  id: string;
  name: string;
  team: string | null;
  application: string | null;
  policy: EffectivePolicy;
  /** null: not checked yet. */
  upstream: UpstreamInfo | null;
  /** key: exact running version -> its cycle (null: unknown/none). */
  eol: ReadonlyMap<string, EolCycleInfo | null>;
};

export type DifferenceReason = "eol_passed" | "eol_soon" | "major" | "minor" | "patch" | "behind_previous_env";

export type Difference = {
  serviceId: string;
  environmentId: string;
  kind: DriftKind;
  /** Set where a single target alone differs, else null. */
  targetId: string | null;
  running: string;
  expected: string | null;
  /** When the difference began according to history (contract: opened_at). */
  since: Date;
  /** For the updates order. */
  reason?: DifferenceReason;
};

export type DriftRecord = {
  id: string;
  serviceId: string;
  environmentId: string;
  kind: DriftKind;
  targetId: string | null;
  state: "open" | "announced" | "resolved";
  running: string | null;
  expected: string | null;
  openedAt: Date;
  announcedAt: Date | null;
  resolvedAt: Date | null;
};

export type AckRecord = {
  id: string;
  serviceId: string;
  environmentId: string | null;
  kind: "release" | "drift";
  untilVersion: string | null;
  /** "Skip this version": silences while no release newer than it is out that the policy alerts on. */
  skipVersion?: string | null;
  expiresAt: Date | null;
  liftedAt: Date | null;
  createdAt: Date;
};
