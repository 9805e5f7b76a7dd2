# Mapstride in a container: `npm install` and the production build in one stage, `npm start` in the
# next. The image bakes the settings that pre-rendered pages print (PUBLIC_URL, SITE_VARIANT,
# SUPPORT_EMAIL); everything else is read from the environment when the container starts.
# See README.md, "Deploying".

FROM node:24-slim AS build
WORKDIR /app
ENV ASTRO_TELEMETRY_DISABLED=1
# `npm ci` trips over Astro's compiler bindings; `npm install` honours the committed lockfile.
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
ARG PUBLIC_URL
ARG SITE_VARIANT=fitness
ARG SUPPORT_EMAIL=support@mapstride.localhost
# Built as production with the public address, so the build hash matches what `npm start` checks.
# No database is at hand here: city pages load their routes after page load instead of baking them.
RUN test -n "$PUBLIC_URL" || (echo "build with --build-arg PUBLIC_URL=https://your.domain" && exit 1)
RUN NODE_ENV=production PUBLIC_URL="$PUBLIC_URL" SITE_VARIANT="$SITE_VARIANT" SUPPORT_EMAIL="$SUPPORT_EMAIL" \
	MAPSTRIDE_BUILD_WITHOUT_DB=1 node scripts/build.mjs

FROM node:24-slim
WORKDIR /app
ARG PUBLIC_URL
ARG SITE_VARIANT=fitness
ARG SUPPORT_EMAIL=support@mapstride.localhost
ENV NODE_ENV=production \
	HOST=0.0.0.0 \
	PORT=4321 \
	DATA_DIR=/data \
	PUBLIC_URL=$PUBLIC_URL \
	SITE_VARIANT=$SITE_VARIANT \
	SUPPORT_EMAIL=$SUPPORT_EMAIL \
	MAPSTRIDE_SKIP_BUILD=1
# The whole tree as built: the server reads dist/, the bundled map regions and the migrations, and
# npm start runs the pinned Node that npm install put into node_modules/.bin.
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4321
# Liveness only; orchestrators should probe readiness (/api/health/ready) before sending traffic.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s \
	CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# npm runs the start script with exec, so SIGTERM from `docker stop` reaches the server itself.
CMD ["npm", "start"]
