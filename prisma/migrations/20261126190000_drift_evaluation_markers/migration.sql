-- A workspace's last drift evaluation: the scheduler's tick skips the
-- workspace while nothing drift reads was written since (insight_writes, but
-- for the evaluation's own transaction), the clock changes nothing yet, and the
-- marker is minutes old at most (lib/services/drift/evaluation-marker.ts). Its
-- snapshot and transaction id belong to this cluster: not backed up.
CREATE TABLE "drift_evaluations" (
    "workspace_id" UUID NOT NULL,
    "snapshot" TEXT NOT NULL,
    "xid" BIGINT NOT NULL,
    "rules" TEXT NOT NULL,
    "next_clock_at" TIMESTAMPTZ(3),
    "evaluated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "drift_evaluations_pkey" PRIMARY KEY ("workspace_id")
);

ALTER TABLE "drift_evaluations" ADD CONSTRAINT "drift_evaluations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Targets: not the bookkeeping of who reported when (an agent's unchanged
-- report each minute), of the Compose refresh's lease and its last commit or
-- error. No insight, and not drift, reads those; the targets list and the
-- settings pages, which do, are not cached.
DROP TRIGGER note_insight_write ON "targets";
CREATE TRIGGER note_insight_write AFTER INSERT OR DELETE OR TRUNCATE ON "targets" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write_update AFTER UPDATE OF "id", "workspace_id", "environment_id", "name", "kind", "config", "last_report_hash", "created_at" ON "targets" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();

-- Forge repositories: not when their releases were last fetched, nor the last
-- error (a check that found nothing new writes both); the releases it finds are.
DROP TRIGGER note_insight_write ON "forge_repositories";
CREATE TRIGGER note_insight_write AFTER INSERT OR DELETE OR TRUNCATE ON "forge_repositories" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write_update AFTER UPDATE OF "id", "kind", "name", "etag" ON "forge_repositories" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();

-- Writes insights show but drift does not read: the matrix shows when a
-- repository was last checked, by whom and with what error; detection only
-- reads its tags. A transaction that wrote only such columns is noted with
-- `drift` false, so the drift tick's markers outlive it (a check that found
-- nothing new, for some repository nearly every minute).
ALTER TABLE "insight_writes" ADD COLUMN "drift" BOOLEAN NOT NULL DEFAULT true;

CREATE OR REPLACE FUNCTION note_insight_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_writes (xid) VALUES (pg_current_xact_id()::text::bigint)
  ON CONFLICT (xid) DO UPDATE SET drift = true WHERE NOT insight_writes.drift;
  RETURN NULL;
END
$$;

CREATE FUNCTION note_insight_display_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_writes (xid, drift) VALUES (pg_current_xact_id()::text::bigint, false) ON CONFLICT (xid) DO NOTHING;
  RETURN NULL;
END
$$;

DROP TRIGGER note_insight_write_update ON "upstream_repositories";
CREATE TRIGGER note_insight_write_update AFTER UPDATE OF "key", "host", "path", "owner_workspace_id", "scope", "tags_fingerprint", "source_label" ON "upstream_repositories" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_display_write AFTER UPDATE OF "checked_by", "checked_at", "last_error" ON "upstream_repositories" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_display_write();
