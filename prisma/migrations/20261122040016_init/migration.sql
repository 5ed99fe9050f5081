-- CreateEnum
CREATE TYPE "Role" AS ENUM ('owner', 'admin', 'member', 'viewer');

-- CreateEnum
CREATE TYPE "TokenRole" AS ENUM ('viewer', 'member');

-- CreateEnum
CREATE TYPE "TargetKind" AS ENUM ('docker', 'kubernetes', 'swarm', 'nomad', 'compose_git');

-- CreateEnum
CREATE TYPE "CheckedBy" AS ENUM ('server', 'agent');

-- CreateEnum
CREATE TYPE "ForgeKind" AS ENUM ('github', 'gitlab');

-- CreateEnum
CREATE TYPE "DriftKind" AS ENUM ('env', 'upstream', 'inconsistent', 'declared', 'eol');

-- CreateEnum
CREATE TYPE "DriftState" AS ENUM ('open', 'announced', 'resolved');

-- CreateEnum
CREATE TYPE "AckKind" AS ENUM ('release', 'drift');

-- CreateEnum
CREATE TYPE "Channel" AS ENUM ('webhook', 'slack', 'email');

-- CreateEnum
CREATE TYPE "DeliveryState" AS ENUM ('pending', 'sent', 'failed');

-- CreateTable
CREATE TABLE "workspaces" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settings" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "Role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("workspace_id","user_id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "role" "TokenRole" NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_keys" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "login_attempts" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "environments" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "production" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "services" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "team" TEXT,
    "application" TEXT,
    "repository" TEXT,
    "policy" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "check_due_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "services_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "targets" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "TargetKind" NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "agent_key_id" UUID,
    "last_observed_at" TIMESTAMPTZ(3),
    "last_report_at" TIMESTAMPTZ(3),
    "last_report_hash" TEXT,
    "last_commit" TEXT,
    "last_error" TEXT,
    "refresh_due_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "targets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" BIGSERIAL NOT NULL,
    "workspace_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "target_id" UUID NOT NULL,
    "container" TEXT NOT NULL DEFAULT '',
    "is_main" BOOLEAN NOT NULL DEFAULT true,
    "image" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "version" TEXT,
    "digest" TEXT,
    "platform_digest" TEXT,
    "platform" TEXT,
    "declared" BOOLEAN NOT NULL DEFAULT false,
    "from" TIMESTAMPTZ(3) NOT NULL,
    "to" TIMESTAMPTZ(3),

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "upstream_repositories" (
    "id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "owner_workspace_id" UUID,
    "scope" TEXT NOT NULL DEFAULT '',
    "checked_by" "CheckedBy" NOT NULL DEFAULT 'server',
    "checked_at" TIMESTAMPTZ(3),
    "due_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leased_until" TIMESTAMPTZ(3),
    "failures" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "last_duration_ms" INTEGER,
    "tags_fingerprint" TEXT,
    "source_label" TEXT,
    "label_checked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upstream_repositories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "upstream_tags" (
    "repository_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "digest" TEXT,
    "platform_digests" TEXT[],
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "digest_checked_at" TIMESTAMPTZ(3),

    CONSTRAINT "upstream_tags_pkey" PRIMARY KEY ("repository_id","name")
);

-- CreateTable
CREATE TABLE "digest_resolutions" (
    "repository_id" UUID NOT NULL,
    "digest" TEXT NOT NULL,
    "tag" TEXT,
    "resolved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retry_at" TIMESTAMPTZ(3),

    CONSTRAINT "digest_resolutions_pkey" PRIMARY KEY ("repository_id","digest")
);

-- CreateTable
CREATE TABLE "forge_repositories" (
    "id" UUID NOT NULL,
    "kind" "ForgeKind" NOT NULL,
    "name" TEXT NOT NULL,
    "etag" TEXT,
    "fetched_at" TIMESTAMPTZ(3),
    "last_error" TEXT,

    CONSTRAINT "forge_repositories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "releases" (
    "forge_repository_id" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "name" TEXT,
    "published_at" TIMESTAMPTZ(3),
    "url" TEXT NOT NULL,
    "prerelease" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "releases_pkey" PRIMARY KEY ("forge_repository_id","tag")
);

-- CreateTable
CREATE TABLE "eol_products" (
    "name" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "etag" TEXT,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,
    "moved_to" TEXT,

    CONSTRAINT "eol_products_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "cache_entries" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "etag" TEXT,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cache_entries_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "drifts" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "target_id" UUID,
    "kind" "DriftKind" NOT NULL,
    "state" "DriftState" NOT NULL DEFAULT 'open',
    "running" TEXT,
    "expected" TEXT,
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "announced_at" TIMESTAMPTZ(3),
    "resolved_at" TIMESTAMPTZ(3),
    "active" BOOLEAN DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "drifts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "acks" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "environment_id" UUID,
    "kind" "AckKind" NOT NULL,
    "until_version" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "lifted_at" TIMESTAMPTZ(3),
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "acks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_rules" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "channel" "Channel" NOT NULL,
    "config" JSONB NOT NULL,
    "events" TEXT[],
    "kinds" TEXT[],
    "services" TEXT[],
    "environments" TEXT[],
    "teams" TEXT[],
    "allow_private" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "routed_at" TIMESTAMPTZ(3),

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deliveries" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "state" "DeliveryState" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leased_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "badge_keys" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "key_id" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "badge_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "workspace_id" UUID NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "workspaces_name_key" ON "workspaces"("name");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "memberships_user_id_idx" ON "memberships"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_hash_key" ON "api_tokens"("hash");

-- CreateIndex
CREATE INDEX "api_tokens_workspace_id_idx" ON "api_tokens"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_keys_hash_key" ON "agent_keys"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "agent_keys_workspace_id_name_key" ON "agent_keys"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "login_attempts_key_at_idx" ON "login_attempts"("key", "at");

-- CreateIndex
CREATE INDEX "environments_workspace_id_position_idx" ON "environments"("workspace_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "environments_workspace_id_name_key" ON "environments"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "services_workspace_id_team_idx" ON "services"("workspace_id", "team");

-- CreateIndex
CREATE UNIQUE INDEX "services_workspace_id_name_key" ON "services"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "targets_environment_id_idx" ON "targets"("environment_id");

-- CreateIndex
CREATE UNIQUE INDEX "targets_workspace_id_name_key" ON "targets"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "runs_target_id_to_idx" ON "runs"("target_id", "to");

-- CreateIndex
CREATE INDEX "runs_workspace_id_service_id_environment_id_from_idx" ON "runs"("workspace_id", "service_id", "environment_id", "from");

-- CreateIndex
CREATE INDEX "runs_workspace_id_environment_id_from_idx" ON "runs"("workspace_id", "environment_id", "from");

-- CreateIndex
CREATE INDEX "runs_repository_digest_idx" ON "runs"("repository", "digest");

-- CreateIndex
CREATE INDEX "upstream_repositories_due_at_idx" ON "upstream_repositories"("due_at");

-- CreateIndex
CREATE UNIQUE INDEX "upstream_repositories_key_scope_key" ON "upstream_repositories"("key", "scope");

-- CreateIndex
CREATE INDEX "upstream_tags_repository_id_digest_idx" ON "upstream_tags"("repository_id", "digest");

-- CreateIndex
CREATE UNIQUE INDEX "forge_repositories_kind_name_key" ON "forge_repositories"("kind", "name");

-- CreateIndex
CREATE INDEX "drifts_workspace_id_state_kind_idx" ON "drifts"("workspace_id", "state", "kind");

-- CreateIndex
CREATE INDEX "drifts_service_id_environment_id_kind_state_idx" ON "drifts"("service_id", "environment_id", "kind", "state");

-- CreateIndex
CREATE UNIQUE INDEX "drifts_service_id_environment_id_kind_active_key" ON "drifts"("service_id", "environment_id", "kind", "active");

-- CreateIndex
CREATE INDEX "acks_workspace_id_service_id_idx" ON "acks"("workspace_id", "service_id");

-- CreateIndex
CREATE INDEX "notification_rules_workspace_id_idx" ON "notification_rules"("workspace_id");

-- CreateIndex
CREATE INDEX "events_routed_at_idx" ON "events"("routed_at");

-- CreateIndex
CREATE UNIQUE INDEX "events_workspace_id_dedupe_key_key" ON "events"("workspace_id", "dedupe_key");

-- CreateIndex
CREATE INDEX "deliveries_state_next_attempt_at_idx" ON "deliveries"("state", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "deliveries_event_id_rule_id_key" ON "deliveries"("event_id", "rule_id");

-- CreateIndex
CREATE UNIQUE INDEX "badge_keys_workspace_id_key" ON "badge_keys"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "badge_keys_key_id_key" ON "badge_keys"("key_id");

-- CreateIndex
CREATE INDEX "audit_log_workspace_id_at_idx" ON "audit_log"("workspace_id", "at");

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_keys" ADD CONSTRAINT "agent_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "environments" ADD CONSTRAINT "environments_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "services" ADD CONSTRAINT "services_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "targets" ADD CONSTRAINT "targets_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "targets" ADD CONSTRAINT "targets_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "targets" ADD CONSTRAINT "targets_agent_key_id_fkey" FOREIGN KEY ("agent_key_id") REFERENCES "agent_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "targets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "upstream_tags" ADD CONSTRAINT "upstream_tags_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "upstream_repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "digest_resolutions" ADD CONSTRAINT "digest_resolutions_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "upstream_repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "releases" ADD CONSTRAINT "releases_forge_repository_id_fkey" FOREIGN KEY ("forge_repository_id") REFERENCES "forge_repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drifts" ADD CONSTRAINT "drifts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drifts" ADD CONSTRAINT "drifts_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drifts" ADD CONSTRAINT "drifts_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "acks" ADD CONSTRAINT "acks_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "acks" ADD CONSTRAINT "acks_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "acks" ADD CONSTRAINT "acks_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_rules" ADD CONSTRAINT "notification_rules_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "notification_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "badge_keys" ADD CONSTRAINT "badge_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
