// Read models over drift and history: the updates list, promotion candidates, delivery statistics.
export {
  buildUpdates, countUpdatesByReason, UPDATE_REASONS, updatesChecklist,
  type BuildUpdatesInput, type UpdateDrift, type UpdateLine, type UpdateLineAck, type UpdateReason,
} from "./updates";
export {
  listPromotions, listReleasesBetween, type ListPromotionsInput, type Promotion, type PromotionRelease, type ReleaseInfo,
} from "./promotions";
export { ArrivalIndex, computeDelivery, medianSeconds, type ComputeDeliveryInput, type DeliveryStats, type DeliveryWindow } from "./delivery";
