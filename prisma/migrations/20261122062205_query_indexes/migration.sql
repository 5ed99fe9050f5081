-- DropIndex
DROP INDEX "events_routed_at_idx";

-- CreateIndex
CREATE INDEX "deliveries_rule_id_created_at_idx" ON "deliveries"("rule_id", "created_at");

-- CreateIndex
CREATE INDEX "drifts_workspace_id_active_idx" ON "drifts"("workspace_id", "active");

-- CreateIndex
CREATE INDEX "drifts_workspace_id_resolved_at_idx" ON "drifts"("workspace_id", "resolved_at");

-- CreateIndex
CREATE INDEX "events_routed_at_created_at_idx" ON "events"("routed_at", "created_at");

-- CreateIndex
CREATE INDEX "events_created_at_idx" ON "events"("created_at");

-- CreateIndex
CREATE INDEX "runs_workspace_id_to_idx" ON "runs"("workspace_id", "to");

-- CreateIndex
CREATE INDEX "runs_workspace_id_from_idx" ON "runs"("workspace_id", "from");
