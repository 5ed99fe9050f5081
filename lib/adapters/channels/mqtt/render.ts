// MQTT: the event as the webhook's JSON, with the delivery id, so a consumer
// (Home Assistant, Node-RED) can drop the repeat that QoS 1 allows.
import type { NotificationPayload } from "@/lib/domain/notifications/payloads";

export function renderMqttMessage(payload: NotificationPayload, deliveryId: string): string {
  return JSON.stringify({ ...payload, delivery_id: deliveryId });
}
