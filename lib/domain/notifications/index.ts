// Notifications, pure: payloads, rule matching, rendering per channel and
// the retry schedule. Sending lives in lib/adapters/channels.
export * from "./payloads";
export * from "./rules";
export * from "./retry";
export { renderWebhookBody } from "./render-webhook";
export { renderSlackMessage, escapeSlack, slackLink, type SlackMessage, type SlackBlock } from "./render-slack";
export { renderEmail, escapeHtml, type RenderedEmail } from "./render-email";
export { urgencyOf, type Urgency } from "./urgency";
