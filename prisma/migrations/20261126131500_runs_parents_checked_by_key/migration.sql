-- The per-statement check of new history rows (20261125161121_runs_checked_per_statement)
-- looked their parents up with NOT EXISTS, which the planner ran as a hash anti-join over
-- a sequential scan of services and targets: every report's insert read the whole
-- services and targets tables, so intake slowed as the fleet grew (a 50-row insert cost
-- 1.6 ms of the database's CPU at 300 targets, 2.9 ms at 4,300). Each distinct key is now
-- looked up on its table's primary key, as the foreign keys did.
CREATE OR REPLACE FUNCTION runs_parents_exist() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM (SELECT DISTINCT service_id FROM new_runs) n
               LEFT JOIN LATERAL (SELECT true AS found FROM services s WHERE s.id = n.service_id LIMIT 1) p ON true WHERE p.found IS NULL)
     OR EXISTS (SELECT 1 FROM (SELECT DISTINCT environment_id FROM new_runs) n
               LEFT JOIN LATERAL (SELECT true AS found FROM environments e WHERE e.id = n.environment_id LIMIT 1) p ON true WHERE p.found IS NULL)
     OR EXISTS (SELECT 1 FROM (SELECT DISTINCT target_id FROM new_runs) n
               LEFT JOIN LATERAL (SELECT true AS found FROM targets t WHERE t.id = n.target_id LIMIT 1) p ON true WHERE p.found IS NULL) THEN
    RAISE EXCEPTION 'a history row names a service, environment or target that does not exist'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'runs';
  END IF;
  RETURN NULL;
END
$$;
