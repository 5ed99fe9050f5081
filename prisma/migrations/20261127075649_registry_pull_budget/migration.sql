-- AlterTable
ALTER TABLE "upstream_repositories" ADD COLUMN     "label_due_at" TIMESTAMPTZ(3),
ADD COLUMN     "label_error" TEXT,
ADD COLUMN     "label_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "label_needed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "label_waiting_quota" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "registry_budgets" (
    "host" TEXT NOT NULL,
    "pull_limit" INTEGER NOT NULL,
    "window_seconds" INTEGER NOT NULL,
    "remaining" INTEGER,
    "remaining_at" TIMESTAMPTZ(3),
    "remaining_pulls_total" BIGINT,
    "blocked_until" TIMESTAMPTZ(3),
    "pulls_total" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "registry_budgets_pkey" PRIMARY KEY ("host")
);

-- CreateTable
CREATE TABLE "registry_pulls" (
    "id" BIGSERIAL NOT NULL,
    "host" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "purpose" TEXT NOT NULL,

    CONSTRAINT "registry_pulls_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "registry_pulls_host_at_idx" ON "registry_pulls"("host", "at");

-- CreateIndex
CREATE INDEX "upstream_repositories_label_due_at_idx" ON "upstream_repositories"("label_due_at");

-- AddForeignKey
ALTER TABLE "registry_pulls" ADD CONSTRAINT "registry_pulls_host_fkey" FOREIGN KEY ("host") REFERENCES "registry_budgets"("host") ON DELETE CASCADE ON UPDATE CASCADE;

-- Labels read before keep their weekly turn instead of all falling due at once.
UPDATE "upstream_repositories" SET "label_due_at" = "label_checked_at" + interval '7 days' WHERE "label_checked_at" IS NOT NULL;
