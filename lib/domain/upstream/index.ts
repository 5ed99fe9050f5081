// Upstream state of repositories: ok, failed, stale or unchecked, and why.
export {
  deriveUpstreamState, isUpstreamKnown, STALE_AFTER_INTERVALS, UPSTREAM_STATES,
  type UpstreamCheckRecord, type UpstreamState, type UpstreamStatus,
} from "./state";
export { describeRegistryFailure, registryFailureOf, type RegistryFailure } from "./registry-failure";
export { countUpstreamStates, groupFailingRegistries, type FailingRegistry, type RepositoryUpstream } from "./banner";
export { HostWarnings, REGISTRY_WARN_INTERVAL_MS } from "./warn-throttle";
