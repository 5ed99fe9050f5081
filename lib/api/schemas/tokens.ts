export * from "@/lib/services/api-tokens/schemas";
