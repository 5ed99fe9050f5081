-- A rule's channel kind is checked against the application's channel table,
-- so a new channel needs no migration.
ALTER TABLE "notification_rules" ALTER COLUMN "channel" TYPE TEXT USING "channel"::text;

DROP TYPE "Channel";
