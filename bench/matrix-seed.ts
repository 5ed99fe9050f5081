// A realistic workspace written straight to the database: services over four
// environments, targets, what ran over the last month, upstream tags and open
// drift. Used by `npm run bench` (the matrix at 2,000 services) and to look at
// the pages with data in them. Deterministic for a given size.
import { createHash, randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";

const DAY = 86_400_000;

const ENVIRONMENTS = [
  { name: "dev", position: 10, production: false },
  { name: "test", position: 20, production: false },
  { name: "staging", position: 30, production: false },
  { name: "production", position: 40, production: true },
] as const;

const TARGETS: Record<string, { name: string; kind: "docker" | "kubernetes" | "compose_git" }[]> = {
  dev: [{ name: "k8s@dev", kind: "kubernetes" }],
  test: [{ name: "compose@test", kind: "compose_git" }],
  staging: [{ name: "docker@staging-1", kind: "docker" }],
  production: [{ name: "k8s@prod-eu", kind: "kubernetes" }, { name: "k8s@prod-us", kind: "kubernetes" }],
};

const TEAMS = ["payments", "platform", "growth", "search", "identity", "data"];
const WORDS = ["checkout", "payments", "ledger", "search", "catalog", "accounts", "auth", "billing", "notify", "orders", "gateway", "reports", "inventory", "pricing", "shipping", "profile"];
const KINDS = ["api", "web", "worker", "cron", "sync", "proxy"];
const PUBLIC = [
  { repo: "docker.io/library/nginx", image: "nginx", line: (k: number) => `1.${25 + (k % 3)}.${k % 5}`, newest: "1.27.4" },
  { repo: "docker.io/library/redis", image: "redis", line: (k: number) => `7.${k % 3}.${k % 7}`, newest: "7.4.2" },
  { repo: "docker.io/library/postgres", image: "postgres", line: (k: number) => `${15 + (k % 3)}.${k % 6}`, newest: "17.2" },
  { repo: "docker.io/library/traefik", image: "traefik", line: (k: number) => `3.${k % 3}.${k % 4}`, newest: "3.2.3" },
];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const digestOf = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

export type SeedResult = { services: number; runs: number; drifts: number };

/** Versions of a private service line, oldest first: 2.0.0 … 2.3.4, then 3.0.0. */
function privateVersions(): string[] {
  const out: string[] = [];
  for (let minor = 0; minor < 4; minor++) for (let patch = 0; patch < 5; patch++) out.push(`2.${minor}.${patch}`);
  out.push("3.0.0");
  return out;
}

export async function seedMatrixWorkspace(db: Db, opts: { workspaceId: string; services: number; now: Date }): Promise<SeedResult> {
  const { workspaceId, now } = opts;
  const rand = random(7);
  const far = new Date(now.getTime() + 365 * DAY);

  const envIds = new Map<string, string>();
  for (const e of ENVIRONMENTS) {
    const row = await db.environment.upsert({
      where: { workspaceId_name: { workspaceId, name: e.name } },
      create: { workspaceId, ...e },
      update: { position: e.position, production: e.production },
    });
    envIds.set(e.name, row.id);
  }
  const targetIds = new Map<string, { id: string; env: string; kind: string }>();
  for (const [env, targets] of Object.entries(TARGETS)) {
    for (const t of targets) {
      const row = await db.target.upsert({
        where: { workspaceId_name: { workspaceId, name: t.name } },
        create: {
          workspaceId, environmentId: envIds.get(env)!, name: t.name, kind: t.kind, lastReportAt: now, lastObservedAt: now, refreshDueAt: far,
          ...(t.kind === "compose_git" ? { config: { repository_url: "https://git.example.com/acme/deploy.git", branch: "main", paths: ["test/compose.yaml"] }, lastCommit: "4f2c9e1" } : {}),
        },
        update: {},
      });
      targetIds.set(t.name, { id: row.id, env, kind: t.kind });
    }
  }

  // Upstream: the public images, and one private repository per service.
  const versions = privateVersions();
  const repoRows: { id: string; key: string; host: string; path: string; ownerWorkspaceId: string | null; scope: string; checkedBy: "server" | "agent"; checkedAt: Date; dueAt: Date }[] = [];
  const tagRows: { repositoryId: string; name: string; firstSeenAt: Date }[] = [];
  for (const p of PUBLIC) {
    const existing = await db.upstreamRepository.findFirst({ where: { key: p.repo, scope: "" } });
    if (existing) continue;
    const id = randomUUID();
    repoRows.push({ id, key: p.repo, host: "docker.io", path: p.repo.slice("docker.io/".length), ownerWorkspaceId: null, scope: "", checkedBy: "server", checkedAt: now, dueAt: far });
    const seen = new Set<string>();
    for (let k = 0; k < 60; k++) seen.add(p.line(k));
    seen.add(p.newest);
    [...seen].forEach((name, i) => tagRows.push({ repositoryId: id, name, firstSeenAt: new Date(now.getTime() - (60 - i) * 3 * DAY) }));
    tagRows.push({ repositoryId: id, name: "latest", firstSeenAt: new Date(now.getTime() - 400 * DAY) });
  }

  const serviceRows: { id: string; workspaceId: string; name: string; team: string; checkDueAt: Date; createdAt: Date }[] = [];
  const runRows: {
    workspaceId: string; serviceId: string; environmentId: string; targetId: string; container: string; image: string; repository: string;
    tag: string; version: string | null; digest: string | null; declared: boolean; from: Date; to: Date | null;
  }[] = [];
  const driftRows: { workspaceId: string; serviceId: string; environmentId: string; kind: "env" | "upstream" | "inconsistent" | "declared" | "eol"; state: "open" | "announced"; running: string | null; expected: string | null; openedAt: Date; announcedAt: Date | null }[] = [];

  for (let s = 0; s < opts.services; s++) {
    const name = `${WORDS[s % WORDS.length]}-${KINDS[Math.floor(s / WORDS.length) % KINDS.length]}${s >= WORDS.length * KINDS.length ? `-${Math.floor(s / (WORDS.length * KINDS.length))}` : ""}`;
    const serviceId = randomUUID();
    serviceRows.push({ id: serviceId, workspaceId, name, team: TEAMS[s % TEAMS.length]!, checkDueAt: far, createdAt: new Date(now.getTime() - 90 * DAY) });

    const pub = s % 5 === 4 ? PUBLIC[s % PUBLIC.length]! : null;
    const repository = pub ? pub.repo : `ghcr.io/acme/${name}`;
    if (!pub) {
      const id = randomUUID();
      repoRows.push({ id, key: repository, host: "ghcr.io", path: `acme/${name}`, ownerWorkspaceId: workspaceId, scope: workspaceId, checkedBy: "agent", checkedAt: new Date(now.getTime() - rand() * 3_600_000), dueAt: far });
      versions.forEach((v, i) => tagRows.push({ repositoryId: id, name: v, firstSeenAt: new Date(now.getTime() - (versions.length - i) * 4 * DAY) }));
    }
    // Newest in dev, one release behind per environment, sometimes more.
    const base = pub ? 0 : Math.max(0, versions.length - 1 - Math.floor(rand() * 4));
    const versionAt = (envIndex: number) => (pub ? pub.line(s + envIndex * (s % 3 === 0 ? 1 : 0)) : versions[Math.max(0, base - envIndex - (rand() < 0.1 ? 2 : 0))]!);
    ENVIRONMENTS.forEach((env, e) => {
      const version = versionAt(e);
      for (const t of TARGETS[env.name]!) {
        const target = targetIds.get(t.name)!;
        const inconsistent = env.name === "production" && t.name === "k8s@prod-us" && s % 11 === 0;
        const v = inconsistent ? versionAt(e + 1) : version;
        const img = pub ? `${pub.image}:${v}` : `${repository}:${v}`;
        const since = new Date(now.getTime() - (2 + e * 4 + rand() * 6) * DAY);
        const previous = pub ? pub.line(s + 7) : versions[Math.max(0, versions.indexOf(v) - 1)]!;
        runRows.push({ workspaceId, serviceId, environmentId: envIds.get(env.name)!, targetId: target.id, container: "app", image: pub ? `${pub.image}:${previous}` : `${repository}:${previous}`, repository, tag: previous, version: previous, digest: digestOf(`${repository}:${previous}`), declared: target.kind === "compose_git", from: new Date(since.getTime() - 20 * DAY), to: since });
        runRows.push({ workspaceId, serviceId, environmentId: envIds.get(env.name)!, targetId: target.id, container: "app", image: img, repository, tag: v, version: v, digest: target.kind === "compose_git" ? null : digestOf(img), declared: target.kind === "compose_git", from: since, to: null });
      }
      const envId = envIds.get(env.name)!;
      if (e === 3 && s % 11 === 0) driftRows.push({ workspaceId, serviceId, environmentId: envId, kind: "inconsistent", state: s % 2 ? "announced" : "open", running: versionAt(e + 1), expected: version, openedAt: new Date(now.getTime() - 3 * 3_600_000), announcedAt: s % 2 ? new Date(now.getTime() - 2 * 3_600_000) : null });
      if (e >= 2 && s % 4 === 1) driftRows.push({ workspaceId, serviceId, environmentId: envId, kind: "env", state: "announced", running: version, expected: versionAt(e - 1), openedAt: new Date(now.getTime() - 9 * DAY), announcedAt: new Date(now.getTime() - 2 * DAY) });
      if (e === 3 && s % 3 === 0) driftRows.push({ workspaceId, serviceId, environmentId: envId, kind: "upstream", state: "announced", running: version, expected: pub ? pub.newest : versions.at(-1)!, openedAt: new Date(now.getTime() - 14 * DAY), announcedAt: new Date(now.getTime() - 14 * DAY) });
      if (e === 3 && pub && s % 2 === 0) driftRows.push({ workspaceId, serviceId, environmentId: envId, kind: "eol", state: "announced", running: version, expected: null, openedAt: new Date(now.getTime() - 20 * DAY), announcedAt: new Date(now.getTime() - 20 * DAY) });
      if (e === 1 && s % 13 === 0) driftRows.push({ workspaceId, serviceId, environmentId: envId, kind: "declared", state: "open", running: version, expected: versionAt(0), openedAt: new Date(now.getTime() - 10 * 60_000), announcedAt: null });
    });
  }

  await seedEolProducts(db, now);
  await db.upstreamRepository.createMany({ data: repoRows });
  for (let i = 0; i < tagRows.length; i += 5_000) await db.upstreamTag.createMany({ data: tagRows.slice(i, i + 5_000), skipDuplicates: true });
  await db.service.createMany({ data: serviceRows });
  for (let i = 0; i < runRows.length; i += 5_000) await db.run.createMany({ data: runRows.slice(i, i + 5_000) });
  for (let i = 0; i < driftRows.length; i += 5_000) await db.drift.createMany({ data: driftRows.slice(i, i + 5_000) });
  return { services: serviceRows.length, runs: runRows.length, drifts: driftRows.length };
}

/** End-of-life cycles for the public images, relative to `now`: one cycle passed, one soon, one fine. */
async function seedEolProducts(db: Db, now: Date): Promise<void> {
  const day = (offset: number) => new Date(now.getTime() + offset * DAY).toISOString().slice(0, 10);
  const cycle = (name: string, eolIn: number) => ({
    name, releaseDate: day(-700), isEol: eolIn <= 0, eolFrom: day(eolIn), isMaintained: eolIn > 0, isLts: false, latest: null,
  });
  const products: Record<string, ReturnType<typeof cycle>[]> = {
    nginx: [cycle("1.27", 300), cycle("1.26", 40), cycle("1.25", -90)],
    redis: [cycle("7.4", 400), cycle("7.2", 30), cycle("7.0", -120), cycle("7.1", -60)],
    postgresql: [cycle("17", 1500), cycle("16", 1100), cycle("15", 45)],
    traefik: [cycle("3.2", 200), cycle("3.1", 20), cycle("3.0", -30)],
  };
  for (const [name, releases] of Object.entries(products)) {
    await db.eolProduct.upsert({ where: { name }, create: { name, data: { releases }, fetchedAt: now }, update: {} });
  }
}
