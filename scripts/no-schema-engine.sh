#!/bin/sh
# Stands in for Prisma's native schema engine, which cannot be downloaded here.
# It must fail: Driftwatch migrates with the WASM engine (lib/db/migrate.ts).
echo "no native schema-engine: use npm run db:migrate / db:migration" >&2
exit 1
