# One image for the gateway and the service workers (docker-compose.yml gives each its command).
# The build stage has the whole toolchain; the runtime stage holds only the runtime tree that
# `npm run build:server` assembles: the compiled server (server/*.js), the SQL migrations, the built
# web app and the production packages it imports. scripts/runtimeImage.test.ts builds and starts the
# same tree without Docker. README, "Running the image".

FROM node:24.11.1-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install` honours the lockfile; `npm ci` refuses it here (docs/DECISIONS.md, Workspace)
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run db:generate \
 && npm run codegen \
 && npm run web:build \
 && npm run build:server -- dist/runtime --install

FROM node:24.11.1-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data \
    NODE_OPTIONS=--max-old-space-size=1024
WORKDIR /app
# owned by root: the portal's user reads its code and cannot change it
COPY --from=build /app/dist/runtime/ ./
# the one folder it writes (uploads in progress, local document storage)
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/main.js"]
