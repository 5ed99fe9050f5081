export * from "@/lib/services/agent-reports/schemas";
