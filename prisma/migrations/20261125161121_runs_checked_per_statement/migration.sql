-- DropForeignKey
ALTER TABLE "runs" DROP CONSTRAINT "runs_environment_id_fkey";

-- DropForeignKey
ALTER TABLE "runs" DROP CONSTRAINT "runs_service_id_fkey";

-- DropForeignKey
ALTER TABLE "runs" DROP CONSTRAINT "runs_target_id_fkey";

-- History rows are checked and removed with their service, environment and
-- target per statement instead of per row: a report inserts tens of rows, and
-- the keys' per-row checks (a locking lookup in each of the three tables for
-- every row) were a third of the database's time for a target's first report.

-- Every row a statement inserts (reports, restores) names a service, an
-- environment and a target that exist: checked once over the statement's rows.
CREATE FUNCTION runs_parents_exist() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_runs n WHERE NOT EXISTS (SELECT 1 FROM services s WHERE s.id = n.service_id))
     OR EXISTS (SELECT 1 FROM (SELECT DISTINCT environment_id FROM new_runs) n WHERE NOT EXISTS (SELECT 1 FROM environments e WHERE e.id = n.environment_id))
     OR EXISTS (SELECT 1 FROM (SELECT DISTINCT target_id FROM new_runs) n WHERE NOT EXISTS (SELECT 1 FROM targets t WHERE t.id = n.target_id)) THEN
    RAISE EXCEPTION 'a history row names a service, environment or target that does not exist'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'runs';
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER runs_parents_exist AFTER INSERT ON "runs" REFERENCING NEW TABLE AS new_runs
  FOR EACH STATEMENT EXECUTE FUNCTION runs_parents_exist();

-- A service's, environment's or target's history goes with it, as the keys'
-- ON DELETE CASCADE did (a workspace takes all three with it). The argument
-- names the column of runs that refers to the table the rows were deleted from.
CREATE FUNCTION delete_runs_with_parent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DELETE FROM runs r USING gone g WHERE r.workspace_id = g.workspace_id AND r.%I = g.id', TG_ARGV[0]);
  RETURN NULL;
END
$$;

CREATE TRIGGER runs_go_with_services AFTER DELETE ON "services" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION delete_runs_with_parent('service_id');
CREATE TRIGGER runs_go_with_environments AFTER DELETE ON "environments" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION delete_runs_with_parent('environment_id');
CREATE TRIGGER runs_go_with_targets AFTER DELETE ON "targets" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION delete_runs_with_parent('target_id');
