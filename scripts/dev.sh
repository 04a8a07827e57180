#!/usr/bin/env bash
# `make dev`: the gateway with reload on :${PORT:-3000} and the Vite dev server on :5173 (it proxies
# /api, /graphql and /graphiql to the gateway). Ctrl-C stops both.
set -euo pipefail
trap 'kill 0' EXIT INT TERM
npx tsx watch gateway/src/main.ts &
npx vite --configLoader runner --config web/vite.config.ts &
wait
