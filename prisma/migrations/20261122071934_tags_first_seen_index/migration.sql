-- CreateIndex
CREATE INDEX "upstream_tags_repository_id_first_seen_at_idx" ON "upstream_tags"("repository_id", "first_seen_at");
