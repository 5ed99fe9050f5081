-- CreateTable
CREATE TABLE "docker_host_watches" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "engine_id" TEXT NOT NULL,
    "engine_name" TEXT NOT NULL,
    "target_name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "due_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_run_at" TIMESTAMPTZ(3),
    "last_report_at" TIMESTAMPTZ(3),
    "workloads" INTEGER,
    "last_error" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "docker_host_watches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "docker_host_watches_engine_id_due_at_idx" ON "docker_host_watches"("engine_id", "due_at");

-- CreateIndex
CREATE UNIQUE INDEX "docker_host_watches_workspace_id_engine_id_key" ON "docker_host_watches"("workspace_id", "engine_id");

-- AddForeignKey
ALTER TABLE "docker_host_watches" ADD CONSTRAINT "docker_host_watches_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "docker_host_watches" ADD CONSTRAINT "docker_host_watches_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
