-- DropIndex
DROP INDEX "runs_workspace_id_to_idx";

-- CreateIndex
CREATE INDEX "runs_workspace_id_to_service_id_idx" ON "runs"("workspace_id", "to", "service_id");
