-- Transactions that wrote something an insight shows (the matrix, updates,
-- drift list, promotions, delivery, metrics). A cached insight is computed as
-- of a transaction snapshot; a later request whose snapshot differs only by
-- transactions not listed here (a token's "last used", the audit log,
-- notifications, sign-in attempts, autovacuum) is answered by it unchanged
-- (lib/services/insights/cache.ts). Rows are kept ten minutes.
CREATE TABLE "insight_writes" (
    "xid" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "insight_writes_pkey" PRIMARY KEY ("xid")
);

CREATE INDEX "insight_writes_at_idx" ON "insight_writes"("at");

-- Rows up to this transaction id may have been pruned: a result whose snapshot
-- reaches back that far cannot be checked, and is computed again.
CREATE TABLE "insight_writes_pruned" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "through_xid" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "insight_writes_pruned_pkey" PRIMARY KEY ("id")
);

INSERT INTO "insight_writes_pruned" DEFAULT VALUES;

-- Once per writing transaction: later statements of the same one find their row.
CREATE FUNCTION note_insight_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_writes (xid) VALUES (pg_current_xact_id()::text::bigint) ON CONFLICT (xid) DO NOTHING;
  RETURN NULL;
END
$$;

-- Every table an insight reads. Not here: users, memberships, api_tokens,
-- agent_keys, login_attempts, notification_rules, events, deliveries,
-- badge_keys, audit_log, cache_entries (tests/integration/insight-writes.test.ts
-- holds every table to one list or the other).
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workspaces" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "environments" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "services" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "targets" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "runs" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "delivery_arrivals" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "upstream_tags" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "digest_resolutions" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "forge_repositories" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "releases" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "eol_products" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "drifts" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "acks" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
-- Upstream repositories: not the scheduler's own bookkeeping (leases, due times, failure counts).
CREATE TRIGGER note_insight_write AFTER INSERT OR DELETE OR TRUNCATE ON "upstream_repositories" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER note_insight_write_update AFTER UPDATE OF "key", "host", "path", "owner_workspace_id", "scope", "checked_by", "checked_at", "last_error", "tags_fingerprint", "source_label" ON "upstream_repositories" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
