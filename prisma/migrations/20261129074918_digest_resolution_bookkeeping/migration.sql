-- When a digest lookup is retried and whether it waits for a pull budget is bookkeeping no
-- insight reads. The quota wake before every check tick updates it; noting those updates
-- renewed every cached insight and made the drift tick evaluate every workspace each tick.
DROP TRIGGER "note_insight_write" ON "digest_resolutions";
CREATE TRIGGER "note_insight_write" AFTER INSERT OR DELETE OR TRUNCATE ON "digest_resolutions" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
CREATE TRIGGER "note_insight_write_update" AFTER UPDATE OF "repository_id", "digest", "tag", "resolved_at" ON "digest_resolutions" FOR EACH STATEMENT EXECUTE FUNCTION note_insight_write();
