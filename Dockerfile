# --- build: compile TypeScript, then keep only production dependencies ---
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- web-ui: Homebox's web UI (AGPL-3.0), built by the script `npm run web-ui` runs ---
# `--build-arg TROVE_WEB_UI_BUILD=` (empty) skips it; Trove then serves its own sign-in page.
FROM node:20-bookworm-slim AS web-ui
ARG TROVE_WEB_UI_BUILD=1
WORKDIR /app
COPY package.json ./
COPY scripts/web-ui.mjs ./scripts/
RUN if [ -n "$TROVE_WEB_UI_BUILD" ]; then npm run web-ui; else mkdir -p web-ui; fi

# --- runtime: non-root user, data under /data ---
FROM node:20-bookworm-slim AS runtime
ARG TROVE_BUILD_COMMIT=""
ARG TROVE_BUILD_TIME=""
ARG TROVE_WEB_UI_BUILD=1
ENV NODE_ENV=production \
    TROVE_WEB_UI_DIR=${TROVE_WEB_UI_BUILD:+/app/web-ui} \
    TROVE_DATA_DIR=/data \
    TROVE_WEB_PORT=7745 \
    TROVE_BUILD_COMMIT=${TROVE_BUILD_COMMIT} \
    TROVE_BUILD_TIME=${TROVE_BUILD_TIME}
RUN groupadd --system trove && useradd --system --gid trove --home-dir /app trove \
    && mkdir -p /data && chown trove:trove /data
WORKDIR /app
COPY --from=build --chown=trove:trove /app/package.json ./
COPY --from=build --chown=trove:trove /app/node_modules ./node_modules
COPY --from=build --chown=trove:trove /app/dist ./dist
COPY --from=web-ui --chown=trove:trove /app/web-ui ./web-ui
USER trove
VOLUME ["/data"]
EXPOSE 7745
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.TROVE_WEB_PORT||7745)+'/api/v1/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
