import { idParams } from "../schemas/common";
import {
  ackListSchema, ackQuerySchema, ackSchema, createAckSchema, createRuleSchema, deliveryListSchema, deliveryQuerySchema,
  driftListSchema, driftQuerySchema, ruleListSchema, ruleSchema, testSendSchema, updateRuleSchema,
} from "../schemas/drift";
import { defineOperation } from "../operation";

const RULE_ROLES =
  "Members manage rules with public destinations; `allow_private`, and any change to a rule that has it, needs an admin. Secrets are masked in every answer.";

export const driftOps = {
  listDrifts: defineOperation({
    id: "listDrifts", method: "GET", path: "/api/v1/drifts", summary: "Drift records", tags: ["drift"], auth: "viewer",
    description: "Open and announced drift by default; `state=resolved` lists ended ones. `silenced` is true while an acknowledgement quiets a drift's notifications.",
    query: driftQuerySchema,
    responses: { 200: { description: "Drift records, most recently opened first", schema: driftListSchema } },
  }),
  createAck: defineOperation({
    id: "createAck", method: "POST", path: "/api/v1/acks", summary: "Acknowledge: silence notifications", tags: ["drift"], auth: "member",
    body: createAckSchema,
    responses: { 201: { description: "Created", schema: ackSchema } },
  }),
  listAcks: defineOperation({
    id: "listAcks", method: "GET", path: "/api/v1/acks", summary: "Acknowledgements", tags: ["drift"], auth: "viewer",
    query: ackQuerySchema,
    responses: { 200: { description: "Acknowledgements, newest first, each with whether it is still in force", schema: ackListSchema } },
  }),
  deleteAck: defineOperation({
    id: "deleteAck", method: "DELETE", path: "/api/v1/acks/{id}", summary: "Remove an acknowledgement", tags: ["drift"], auth: "member",
    params: idParams,
    responses: { 204: { description: "Removed" } },
  }),
  listNotificationRules: defineOperation({
    id: "listNotificationRules", method: "GET", path: "/api/v1/notification-rules", summary: "Notification rules", tags: ["notifications"], auth: "member",
    description: RULE_ROLES,
    responses: { 200: { description: "Rules", schema: ruleListSchema } },
  }),
  createNotificationRule: defineOperation({
    id: "createNotificationRule", method: "POST", path: "/api/v1/notification-rules", summary: "Create a notification rule", tags: ["notifications"], auth: "member",
    description: RULE_ROLES,
    body: createRuleSchema,
    responses: { 201: { description: "Created", schema: ruleSchema } },
  }),
  getNotificationRule: defineOperation({
    id: "getNotificationRule", method: "GET", path: "/api/v1/notification-rules/{id}", summary: "One notification rule", tags: ["notifications"], auth: "member",
    params: idParams,
    responses: { 200: { description: "The rule", schema: ruleSchema } },
  }),
  updateNotificationRule: defineOperation({
    id: "updateNotificationRule", method: "PATCH", path: "/api/v1/notification-rules/{id}", summary: "Change a notification rule", tags: ["notifications"], auth: "member",
    description: `${RULE_ROLES} \`config\` is merged into the stored settings, so a secret left out is kept.`,
    params: idParams, body: updateRuleSchema,
    responses: { 200: { description: "Updated", schema: ruleSchema } },
  }),
  deleteNotificationRule: defineOperation({
    id: "deleteNotificationRule", method: "DELETE", path: "/api/v1/notification-rules/{id}", summary: "Delete a notification rule", tags: ["notifications"], auth: "member",
    params: idParams,
    responses: { 204: { description: "Deleted, with its deliveries" } },
  }),
  testNotificationRule: defineOperation({
    id: "testNotificationRule", method: "POST", path: "/api/v1/notification-rules/{id}/test", summary: "Send a sample notification now", tags: ["notifications"], auth: "member",
    description: "Sends one sample drift_detected notification straight to the rule's destination, outside the outbox, and answers with the outcome.",
    params: idParams,
    responses: { 200: { description: "What happened", schema: testSendSchema } },
  }),
  listRuleDeliveries: defineOperation({
    id: "listRuleDeliveries", method: "GET", path: "/api/v1/notification-rules/{id}/deliveries", summary: "Deliveries and failures of a rule", tags: ["notifications"], auth: "admin",
    params: idParams, query: deliveryQuerySchema,
    responses: { 200: { description: "Deliveries, newest first", schema: deliveryListSchema } },
  }),
};
