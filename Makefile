# The front door. Each target is a thin call to an npm script; file targets make `make start` quick
# when nothing changed (install, generate and build run only when their inputs moved).
SHELL := /bin/bash
.DEFAULT_GOAL := help

NPM_STAMP    := node_modules/.install-stamp
PRISMA_OUT   := services/shared/generated/prisma/client.ts
CODEGEN_OUT  := web/src/generated/graphql.ts
WEB_OUT      := web/dist/index.html
GRAPHIQL_OUT := gateway/graphiql/dist/index.html
WEB_SOURCES  := $(shell find web/src web/index.html web/vite.config.ts web/public -type f 2>/dev/null | grep -v '/generated/')

.PHONY: help start dev test test-only lint format codegen db-migrate db-seed admin-password build bench ci-env clean s3 pro-app

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-15s %s\n", $$1, $$2}'

# `npm install` honours the lockfile; `npm ci` refuses it here because the registry this project
# installs from lacks other platforms' optional packages (see docs/DECISIONS.md). --prefer-offline
# takes what npm's cache holds without asking the registry again (a clean clone on a machine that
# installed before: about half a minute less); anything missing is still fetched.
$(NPM_STAMP): package.json package-lock.json
	npm install --prefer-offline --no-audit --no-fund
	@touch $@

$(PRISMA_OUT): prisma/schema.prisma $(NPM_STAMP)
	npm run --silent db:generate
	@touch $@

$(CODEGEN_OUT): schema/schema.graphql codegen.ts $(shell find web/src -name '*.graphql' 2>/dev/null) $(NPM_STAMP)
	npm run --silent codegen
	@touch $@

$(WEB_OUT): $(WEB_SOURCES) $(CODEGEN_OUT) $(NPM_STAMP)
	npm run --silent web:build
	@touch $@

$(GRAPHIQL_OUT): $(shell find gateway/graphiql -maxdepth 1 -type f) $(NPM_STAMP)
	npm run --silent graphiql:build
	@touch $@

build: $(PRISMA_OUT) $(WEB_OUT) $(GRAPHIQL_OUT) ## Install, generate and build what changed

start: build ## Run the portal on http://localhost:$${PORT:-3000} (machine services, or the embedded default)
	npm run --silent start

dev: $(PRISMA_OUT) $(CODEGEN_OUT) ## Gateway with reload plus the Vite dev server
	npm run --silent dev

ci-env: ## Start stopped backing services and install Chromium for the browser tests
	bash scripts/ensure-test-env.sh

test: build ci-env ## Run every test (unit, integration, browser); ends with "N passed, N failed"
	npm run --silent test

lint: $(PRISMA_OUT) $(CODEGEN_OUT) ## Biome (lint and format check) and the TypeScript compiler
	npm run --silent lint

format: $(NPM_STAMP) ## Format the tree with Biome
	npx biome format --write .

codegen: $(PRISMA_OUT) ## Print schema/schema.graphql from the gateway and generate the web hooks
	npm run --silent schema:print
	npm run --silent codegen

db-migrate: $(PRISMA_OUT) ## Apply pending migrations
	npm run --silent db:migrate

db-seed: $(PRISMA_OUT) ## Seed defaults and the first admin (idempotent)
	npm run --silent db:seed

admin-password: $(PRISMA_OUT) ## Set a new mainAdmin password: printed, or ADMIN_PASSWORD; ends their sessions
	npm run --silent admin:password

s3: $(NPM_STAMP) ## An S3-protocol server (s3rver) on :4569 to try cloud storage beside `make start`
	npm run --silent s3:dev

pro-app: $(NPM_STAMP) ## The Pro-app simulator on :4600 (PRO_APP_SECRET=whsec_...) to try the sync beside `make start`
	npm run --silent pro-app

bench: build ci-env ## Run the benchmarks in bench/
	npm run --silent bench

clean: ## Remove build output and generated code
	rm -rf web/dist web/src/generated services/shared/generated gateway/graphiql/dist dist
