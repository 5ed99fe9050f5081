export * from "@/lib/services/schemas";
