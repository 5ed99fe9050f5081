-- DropIndex
DROP INDEX "runs_repository_digest_idx";

-- CreateIndex
CREATE INDEX "runs_repository_to_idx" ON "runs"("repository", "to");

-- CreateIndex
CREATE INDEX "services_repository_idx" ON "services"("repository");
