import { defineConfig } from "prisma/config";

// The URL is only read by Prisma's own CLI; Driftwatch migrates through
// lib/db/migrate.ts (offline WASM engine), so an unset URL is fine here.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/unused" },
});
