-- A Helm release is a service of its own, named chart:<release> (lib/domain/charts.ts). Releases
-- recorded before shared one service with their pods whenever both carried the same name. A
-- service whose history holds only chart rows is renamed, keeping its drifts and acks; one that
-- also ran images keeps those, and its chart rows move, with its policy, to a new chart:<name>.
-- Chart rows are those whose repository is a chart key (lib/domain/charts.ts, isChartKey).
CREATE TEMP TABLE helm_release_services ON COMMIT DROP AS
SELECT s.id, s.workspace_id, s.name,
       EXISTS (SELECT 1 FROM runs r WHERE r.service_id = s.id
                 AND NOT (r.repository LIKE 'oci://%' OR r.repository LIKE 'https://%' OR r.repository LIKE 'http://%' OR r.repository LIKE 'chart:%')) AS ran_images
FROM services s
WHERE s.name NOT LIKE 'chart:%'
  AND EXISTS (SELECT 1 FROM runs r WHERE r.service_id = s.id
                AND (r.repository LIKE 'oci://%' OR r.repository LIKE 'https://%' OR r.repository LIKE 'http://%' OR r.repository LIKE 'chart:%'));

UPDATE services s SET name = 'chart:' || s.name
FROM helm_release_services h
WHERE s.id = h.id AND NOT h.ran_images
  AND NOT EXISTS (SELECT 1 FROM services o WHERE o.workspace_id = s.workspace_id AND o.name = 'chart:' || s.name);

INSERT INTO services (id, workspace_id, name, team, application, policy, created_at, check_due_at)
SELECT gen_random_uuid(), s.workspace_id, 'chart:' || s.name, s.team, s.application, s.policy, now(), now()
FROM services s JOIN helm_release_services h ON h.id = s.id
WHERE h.ran_images
ON CONFLICT (workspace_id, name) DO NOTHING;

UPDATE runs r SET service_id = c.id
FROM helm_release_services h JOIN services c ON c.workspace_id = h.workspace_id AND c.name = 'chart:' || h.name
WHERE h.ran_images AND r.service_id = h.id
  AND (r.repository LIKE 'oci://%' OR r.repository LIKE 'https://%' OR r.repository LIKE 'http://%' OR r.repository LIKE 'chart:%');

-- The image service's chart_repository named its release's chart: it now sits on the chart service.
UPDATE services s SET policy = NULLIF(s.policy - 'chart_repository', '{}'::jsonb)
FROM helm_release_services h
WHERE s.id = h.id AND h.ran_images AND s.policy ? 'chart_repository';
