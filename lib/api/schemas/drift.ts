// Drift records, acknowledgements, notification rules and their deliveries:
// each service owns its schemas; the OpenAPI document reads them here.
export * from "@/lib/services/drift/schemas";
export * from "@/lib/services/acks/schemas";
export * from "@/lib/services/notification-rules/schemas";
export * from "@/lib/services/notifications/schemas";
