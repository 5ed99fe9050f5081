-- AlterTable
ALTER TABLE "environments" ADD COLUMN     "gate" JSONB;

-- CreateTable
CREATE TABLE "gate_decision_counts" (
    "environment_id" UUID NOT NULL,
    "decision" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "gate_decision_counts_pkey" PRIMARY KEY ("environment_id","decision")
);

-- AddForeignKey
ALTER TABLE "gate_decision_counts" ADD CONSTRAINT "gate_decision_counts_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
