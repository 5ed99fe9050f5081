// Version engine: which upstream tag is the newest release for a running tag.
export { parseTag, isVersionTag, isMovingTag, type ParsedTag, type TagKind } from "./parse";
export { compareTags, likeGroupKey, jumpBetween, type Jump } from "./compare";
export { selectNewest, type NewestInput, type NewestResult } from "./select";
export { movingTagCandidates } from "./moving";
export { releaseCycle, cycleShapeOf, type CycleShape } from "./cycle";
export { compileTagFilter, type TagFilter } from "./filter";
export { tagsFromJson } from "./tags-json";
