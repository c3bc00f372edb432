# syntax=docker/dockerfile:1
# Switchyard: the console and the API on port 3000. docs/deployment.md tells how to run it (alone, with Compose,
# several nodes); the entry and runtime flags are those of `npm start` (package.json).

ARG NODE_IMAGE=node:20-bookworm-slim

# The package manifests and a compiler (better-sqlite3 compiles from source when no prebuilt binary fits).
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/

# Every dependency (TypeScript, Vite) and the three builds: packages/shared, server, web.
FROM manifests AS build
RUN npm ci
COPY tsconfig.base.json ./
COPY scripts scripts
COPY packages/shared packages/shared
COPY server server
COPY web web
RUN npm run build

# Production dependencies only, native modules built for the runtime's base image.
FROM manifests AS deps
RUN npm ci --omit=dev && npm cache clean --force && mkdir -p server/node_modules

# What runs: node, the production dependencies and the built files; no compiler, no sources.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    PORT=3000 \
    SQLITE_PATH=/data/switchyard.db
WORKDIR /app
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/server/node_modules server/node_modules
COPY --from=build /app/packages/shared/package.json packages/shared/
COPY --from=build /app/packages/shared/dist packages/shared/dist
COPY --from=build /app/server/package.json server/
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/web/package.json web/
COPY --from=build /app/web/dist web/dist
RUN mkdir -p /data && chown node:node /data
USER node
# The SQLite database (when SQL_DSN is empty) and its WAL files.
VOLUME ["/data"]
EXPOSE 3000
# Liveness: the process answers. /api/ready (database and Redis) is for load balancers: a database outage should take
# the node out of rotation, not get its container restarted.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/status').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/dist/main.js"]
