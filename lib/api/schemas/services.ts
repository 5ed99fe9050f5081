export * from "@/lib/services/services/schemas";
