export * from "@/lib/services/environments/schemas";
