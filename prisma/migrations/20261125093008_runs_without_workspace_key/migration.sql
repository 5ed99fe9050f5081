-- DropForeignKey
ALTER TABLE "runs" DROP CONSTRAINT "runs_workspace_id_fkey";
