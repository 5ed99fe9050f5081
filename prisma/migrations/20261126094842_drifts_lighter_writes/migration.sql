-- DropForeignKey
ALTER TABLE "drifts" DROP CONSTRAINT "drifts_workspace_id_fkey";

-- DropIndex
DROP INDEX "drifts_service_id_environment_id_kind_state_idx";

-- A drift goes with its service (and so with its workspace): the workspace key was a third
-- lookup per inserted row, and a first evaluation inserts tens of thousands at once. The
-- index on (service, environment, kind, state) repeated the unique index's leading columns.
