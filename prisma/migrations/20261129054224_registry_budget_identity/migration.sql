/*
  Warnings:

  - The primary key for the `registry_budgets` table will be changed. If it partially fails, the table could be left without primary key constraint.

*/
-- DropForeignKey
ALTER TABLE "registry_pulls" DROP CONSTRAINT "registry_pulls_host_fkey";

-- DropIndex
DROP INDEX "registry_pulls_host_at_idx";

-- A moving tag whose platform digest waits for the pull budget says so (and until when).
-- AlterTable
ALTER TABLE "digest_resolutions" ADD COLUMN     "waiting_quota" BOOLEAN NOT NULL DEFAULT false;

-- A budget is a host's and an identity's: a sign-in is a new budget, not the anonymous one's leftovers.
-- Rows kept from before were most likely anonymous; a signed-in server starts a fresh row.
-- AlterTable
ALTER TABLE "registry_budgets" DROP CONSTRAINT "registry_budgets_pkey",
ADD COLUMN     "identity" TEXT NOT NULL DEFAULT 'anonymous',
ADD CONSTRAINT "registry_budgets_pkey" PRIMARY KEY ("host", "identity");

-- AlterTable
ALTER TABLE "registry_pulls" ADD COLUMN     "identity" TEXT NOT NULL DEFAULT 'anonymous';

-- CreateIndex
CREATE INDEX "registry_pulls_host_identity_at_idx" ON "registry_pulls"("host", "identity", "at");

-- AddForeignKey
ALTER TABLE "registry_pulls" ADD CONSTRAINT "registry_pulls_host_identity_fkey" FOREIGN KEY ("host", "identity") REFERENCES "registry_budgets"("host", "identity") ON DELETE CASCADE ON UPDATE CASCADE;
