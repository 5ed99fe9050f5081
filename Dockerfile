# Driftwatch: the web app, the API, the scheduler and every `driftwatch` command in one image.
#
#   docker build -t driftwatch .
#   docker run -d -p 3000:3000 -v driftwatch-data:/data driftwatch
#
# NODE_IMAGE: the Node 20 base (any Debian-based image with node on PATH).
# PREBUILT=1: use node_modules and .next from the build context as they are (an offline build from a
# checkout where `npm ci` and `npm run build` already ran; its context must not ignore them).
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ARG PREBUILT=0
ENV NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1
WORKDIR /app
# Dependencies first: this layer is reused until the lock file changes.
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
COPY scripts ./scripts
RUN if [ "$PREBUILT" != 1 ]; then npm ci --no-audit --no-fund; fi
COPY . .
# The command line is compiled here: the image's code is read-only to its user.
# Tools npm keeps as peers of runtime packages (the Prisma CLI and what it brings, TypeScript,
# Playwright) are only for building and testing: the server never loads them.
RUN if [ "$PREBUILT" != 1 ]; then node scripts/build-if-stale.mjs --force && npm prune --omit=dev --no-audit --no-fund; fi \
 && test -f .next/BUILD_ID && test -f lib/db/generated/client.ts \
 && rm -rf .next/cache node_modules/prisma node_modules/@prisma/dev node_modules/@prisma/studio-core \
      node_modules/@electric-sql node_modules/typescript node_modules/playwright node_modules/playwright-core node_modules/@playwright \
 && node scripts/build-cli.mjs

FROM ${NODE_IMAGE}
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 \
    HOST=0.0.0.0 PORT=3000 DRIFTWATCH_DATA_DIR=/data
# PostgreSQL (the embedded database) refuses to run as root: the server runs as its own user.
RUN groupadd --system --gid 10001 driftwatch \
 && useradd --system --uid 10001 --gid driftwatch --home-dir /data --shell /usr/sbin/nologin driftwatch \
 && mkdir -p /data && chown driftwatch:driftwatch /data
WORKDIR /app
COPY --from=build /app /app
# The code stays root's; Next writes its runtime cache under .next.
RUN ln -s /app/bin/driftwatch.mjs /usr/local/bin/driftwatch && mkdir -p /app/.next/cache && chown -R driftwatch:driftwatch /app/.next/cache
USER driftwatch
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["driftwatch"]
CMD ["start"]
