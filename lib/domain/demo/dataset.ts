// What the demo workspace holds: about twenty services over dev, staging and
// production, with sixty days of deploys that move through the pipeline at
// each service's own pace. Pure data and arithmetic; plan.ts turns it into reports.
// The versions they start from came out 120 days ago, before the widest chart
// window (90 days; 12 weeks of arrivals), so first sightings are not counted as
// deploys and the charts start from a running fleet, not from nothing.

export const DEMO_ENVIRONMENTS = [
  { name: "dev", position: 0, production: false },
  { name: "staging", position: 1, production: false },
  { name: "production", position: 2, production: true },
] as const;

export type DemoEnvironment = (typeof DEMO_ENVIRONMENTS)[number]["name"];

export const DEMO_TARGETS: { name: string; kind: "docker" | "kubernetes"; environment: DemoEnvironment }[] = [
  { name: "docker@dev-1", kind: "docker", environment: "dev" },
  { name: "k8s@staging", kind: "kubernetes", environment: "staging" },
  { name: "k8s@prod-eu", kind: "kubernetes", environment: "production" },
  { name: "k8s@prod-us", kind: "kubernetes", environment: "production" },
];

export type DemoService = {
  name: string;
  team: string;
  /** Repository path on the demo registry. */
  repository: string;
  /** End-of-life product (recorded data), or `none`. */
  eol?: string;
  /** Where its releases are published (GitHub owner/repo and tag prefix); default `acme/<name>`, `v`. None for postgres. */
  forge?: { github: string; prefix: string } | null;
  /** Releases, oldest first, with how many days ago each came out. */
  releases: [version: string, daysAgo: number][];
  /** Days from a release to its deploy in staging and in production (dev deploys within hours). */
  lag: { staging: number; production: number };
  /** The newest release index an environment got to (a stuck upgrade). */
  cap?: Partial<Record<DemoEnvironment, number>>;
  /** A production target that is a step behind the other. */
  laggingTarget?: string;
};

export const DEMO_SERVICES: DemoService[] = [
  // Third-party images: end of life and major jumps.
  { name: "ingress", team: "platform", repository: "library/nginx", eol: "nginx", forge: { github: "nginx/nginx", prefix: "release-" }, lag: { staging: 1, production: 4 }, cap: { production: 0 },
    releases: [["1.27.3", 120], ["1.27.4", 45], ["1.28.0", 30], ["1.29.0", 12], ["1.29.1", 4]] },
  { name: "orders-db", team: "data", repository: "library/postgres", eol: "postgresql", forge: null, lag: { staging: 2, production: 6 }, cap: { staging: 3, production: 1 },
    releases: [["14.13", 120], ["14.15", 50], ["15.10", 40], ["16.6", 25], ["17.2", 8]] },
  { name: "cache", team: "data", repository: "library/redis", eol: "redis", forge: { github: "redis/redis", prefix: "" }, lag: { staging: 1.5, production: 5 }, cap: { production: 1 },
    releases: [["7.2.5", 120], ["7.2.7", 40], ["7.4.1", 20], ["7.4.2", 6]] },
  { name: "queue", team: "platform", repository: "library/rabbitmq", eol: "none", forge: { github: "rabbitmq/rabbitmq-server", prefix: "v" }, lag: { staging: 2, production: 7 }, cap: { production: 1 },
    releases: [["3.13.6", 120], ["3.13.7", 35], ["4.0.4", 15], ["4.0.5", 3]] },
  // The teams' own services.
  { name: "checkout-api", team: "payments", repository: "acme/checkout-api", lag: { staging: 1.5, production: 5 },
    releases: [["2.3.0", 120], ["2.3.1", 55], ["2.4.0", 42], ["2.4.1", 30], ["2.5.0", 18], ["2.5.1", 9], ["2.6.0", 2.5]] },
  { name: "payments", team: "payments", repository: "acme/payments", lag: { staging: 2, production: 6 }, cap: { staging: 3 },
    releases: [["1.8.0", 120], ["1.8.2", 50], ["1.9.0", 33], ["1.9.1", 20], ["1.9.2", 7]] },
  { name: "billing-worker", team: "payments", repository: "acme/billing-worker", lag: { staging: 1, production: 3 },
    releases: [["0.14.0", 120], ["0.14.1", 52], ["0.15.0", 37], ["0.15.1", 21], ["0.16.0", 11], ["0.16.1", 2]] },
  { name: "accounts", team: "identity", repository: "acme/accounts", lag: { staging: 2, production: 7 },
    releases: [["3.1.0", 120], ["3.1.1", 48], ["3.2.0", 28], ["3.2.1", 14], ["3.2.2", 5]] },
  { name: "auth-gateway", team: "identity", repository: "acme/auth-gateway", lag: { staging: 1, production: 4 }, cap: { production: 1 },
    releases: [["0.9.4", 120], ["0.9.5", 40], ["1.0.0", 20], ["1.0.1", 10]] },
  { name: "catalog", team: "storefront", repository: "acme/catalog", lag: { staging: 1, production: 5 },
    releases: [["5.12.0", 120], ["5.12.1", 40], ["5.13.0", 25], ["5.13.1", 10], ["5.13.2", 1]] },
  { name: "search", team: "storefront", repository: "acme/search", lag: { staging: 1, production: 3 }, laggingTarget: "k8s@prod-us",
    releases: [["4.6.0", 120], ["4.6.1", 44], ["4.7.0", 29], ["4.7.1", 16], ["4.8.0", 8]] },
  { name: "web-frontend", team: "storefront", repository: "acme/web-frontend", lag: { staging: 0.5, production: 2 },
    releases: [["12.4.0", 120], ["12.5.0", 56], ["12.6.0", 47], ["12.7.0", 39], ["12.8.0", 31], ["12.9.0", 24], ["12.10.0", 17], ["12.11.0", 10], ["12.12.0", 3]] },
  { name: "recommendations", team: "storefront", repository: "acme/recommendations", lag: { staging: 2, production: 6 },
    releases: [["2.0.0", 120], ["2.1.0", 42], ["2.1.1", 26]] },
  { name: "notifications", team: "messaging", repository: "acme/notifications", lag: { staging: 3, production: 9 },
    releases: [["1.2.0", 120], ["1.3.0", 45], ["1.3.1", 27], ["1.4.0", 6]] },
  { name: "mailer", team: "messaging", repository: "acme/mailer", lag: { staging: 1, production: 4 },
    releases: [["6.0.2", 120], ["6.0.3", 41], ["6.1.0", 19]] },
  { name: "inventory", team: "fulfilment", repository: "acme/inventory", lag: { staging: 2, production: 8 },
    releases: [["8.3.0", 120], ["8.3.1", 51], ["8.4.0", 36], ["8.4.1", 13], ["8.5.0", 4]] },
  { name: "shipping", team: "fulfilment", repository: "acme/shipping", lag: { staging: 1.5, production: 5 },
    releases: [["2.9.0", 120], ["2.9.1", 38], ["3.0.0", 12]] },
  { name: "reports", team: "analytics", repository: "acme/reports", lag: { staging: 2, production: 6 },
    releases: [["0.7.0", 120], ["0.7.1", 33], ["0.8.0", 9]] },
  { name: "admin-ui", team: "platform", repository: "acme/admin-ui", lag: { staging: 1, production: 3 },
    releases: [["4.1.0", 120], ["4.1.1", 34], ["4.2.0", 15], ["4.2.1", 5]] },
  { name: "feature-flags", team: "platform", repository: "acme/feature-flags", lag: { staging: 1, production: 2 },
    releases: [["1.5.0", 120], ["1.5.1", 30]] },
];

/** The Compose file in Git declares staging: payments' next release is declared but not yet rolled out. */
export const DECLARED_IN_STAGING = ["checkout-api", "payments", "web-frontend"];
export const DECLARED_AHEAD: Record<string, string> = { payments: "1.9.2" };

const DAY = 86_400_000;

export type Deploy = { at: number; version: string };

/** When each release reached a target, oldest first (times in ms since the epoch). */
export function deploysOn(service: DemoService, target: (typeof DEMO_TARGETS)[number], now: number): Deploy[] {
  const env = target.environment;
  const lagDays = env === "dev" ? 0.1 : service.lag[env];
  const cap = service.cap?.[env] ?? service.releases.length - 1;
  const out: Deploy[] = [];
  service.releases.forEach(([version, daysAgo], i) => {
    // A few hours' spread per service keeps deploys from landing on the same minute.
    const at = now - (daysAgo - lagDays) * DAY + (service.name.length % 7) * 3_600_000;
    if (i <= cap && at < now - 60_000) out.push({ at, version });
  });
  if (service.laggingTarget === target.name && out.length > 1) out.pop();
  return out;
}

/** The version a target ran at `at`, with its deploy time. */
export function runningAt(deploys: Deploy[], at: number): Deploy | null {
  let current: Deploy | null = null;
  for (const d of deploys) if (d.at <= at) current = d;
  return current;
}

/** Where a demo service's releases are published, or null. */
export function demoForgeOf(service: DemoService): { github: string; prefix: string } | null {
  return service.forge === undefined ? { github: `acme/${service.name}`, prefix: "v" } : service.forge;
}
