// Read models over drift and history: the updates list, promotion candidates, delivery statistics.
export {
  buildUpdates, countUpdatesByReason, describeLineMove, describeLineTargets, describeReasons, REASON_RANK, UPDATE_REASONS, updatesChecklist,
  type BuildUpdatesInput, type MoveLine, type UpdateDrift, type UpdateLine, type UpdateLineAck, type UpdatePromote, type UpdateReason, type UpdateTarget,
} from "./updates";
export {
  countGroups, groupedUpdatesChecklist, groupUpdateLines, summariseRunning, type UpdateGroup, type UpdateGroupChip,
} from "./update-groups";
export {
  listPromotions, listReleasesBetween, type ListPromotionsInput, type Promotion, type PromotionRelease, type ReleaseInfo,
} from "./promotions";
export { ArrivalIndex, computeDelivery, medianSeconds, type ComputeDeliveryInput, type DeliveryStats, type DeliveryWindow } from "./delivery";
export { listHeldByService, listWaitingReleases, type WaitingRelease } from "./waiting";
