export * from "@/lib/services/matrix/schemas";
export * from "@/lib/services/history/schemas";
export * from "@/lib/services/targets/schemas";
