-- CreateTable
CREATE TABLE "delivery_arrivals" (
    "workspace_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "version" TEXT NOT NULL,
    "first_from" TIMESTAMPTZ(3) NOT NULL,
    "last_to" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "delivery_arrivals_pkey" PRIMARY KEY ("service_id","environment_id","version")
);

-- CreateIndex
CREATE INDEX "delivery_arrivals_workspace_id_last_to_idx" ON "delivery_arrivals"("workspace_id", "last_to");

-- CreateIndex
CREATE INDEX "delivery_arrivals_environment_id_idx" ON "delivery_arrivals"("environment_id");

-- CreateIndex
CREATE INDEX "login_attempts_at_idx" ON "login_attempts"("at");

-- AddForeignKey
ALTER TABLE "delivery_arrivals" ADD CONSTRAINT "delivery_arrivals_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_arrivals" ADD CONSTRAINT "delivery_arrivals_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_arrivals" ADD CONSTRAINT "delivery_arrivals_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
