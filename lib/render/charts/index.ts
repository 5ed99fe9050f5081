export { renderArrivalsChart, type ArrivalsInput } from "./arrivals";
export { renderDriftTrendChart, DRIFT_KIND_LABELS, type DriftTrendInput } from "./drift-trend";
export { renderVersionTimeline, type TimelineLane, type TimelineSegment, type VersionTimelineInput } from "./version-timeline";
export type { ChartOptions } from "./frame";
