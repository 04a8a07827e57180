import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { unwrapResolverError } from "@apollo/server/errors";
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from "@apollo/server/plugin/disabled";
import { ApolloArmor } from "@escape.tech/graphql-armor";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import type { Config } from "../../../services/shared/config";
import { appErrorCodes, isAppError } from "../../../services/shared/errors";
import { logger } from "../../../services/shared/logger";
import { toGraphQLError } from "../errors";
import type { GraphQLContext } from "./context";
import { schema } from "./schema";

/** Most directives one operation may carry. */
export const GRAPHQL_MAX_DIRECTIVES = 20;
/** Most lexical tokens one operation may hold (the GraphiQL introspection query needs about 400). */
export const GRAPHQL_MAX_TOKENS = 2000;

/** Error codes whose message is meant for the client (bad queries, expected failures). */
const CLIENT_ERROR_CODES = new Set([
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  "OPERATION_RESOLUTION_FAILURE",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
]);

/** The codes of errors the portal made itself from an AppError (./errors toGraphQLError): shown as they are. */
const APP_ERROR_CODES = new Set<string>(appErrorCodes.filter((code) => code !== "INTERNAL"));

function isClientError(error: unknown, formatted?: GraphQLFormattedError): boolean {
  const original = unwrapResolverError(error);
  if (isAppError(original)) return true;
  if (original instanceof GraphQLError && APP_ERROR_CODES.has(String(original.extensions.code))) return true;
  const code = formatted?.extensions?.code;
  return typeof code === "string" && CLIENT_ERROR_CODES.has(code);
}

/**
 * What a client sees of an error: AppErrors through the shared mapper, GraphQL request errors
 * (syntax, validation, limits) as they are, and anything else as "Internal server error" unless
 * NODE_ENV is development.
 */
export function formatGraphQLError(cfg: Config) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (isAppError(original)) {
      const mapped = toGraphQLError(original);
      return { ...formatted, message: mapped.message, extensions: mapped.extensions };
    }
    if (cfg.NODE_ENV === "development" || isClientError(error, formatted)) return formatted;
    return {
      message: "Internal server error",
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    };
  };
}

function errorLoggingPlugin(): ApolloServerPlugin<GraphQLContext> {
  const log = logger("graphql");
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue, operationName }) {
          for (const error of errors) {
            if (isClientError(error, { message: error.message, extensions: error.extensions })) continue;
            log.error(
              {
                err: unwrapResolverError(error),
                requestId: contextValue.requestId,
                operationName,
                path: error.path,
              },
              "GraphQL resolver failed",
            );
          }
        },
      };
    },
  };
}

/**
 * The started Apollo Server of the portal: CSRF prevention, no batching, introspection outside
 * production, no stack traces in any response, and graphql-armor limits on depth, aliases,
 * cost and directives (GRAPHQL_MAX_* in the configuration) and on tokens (parser limit).
 * @throws when the schema or a plugin fails to start.
 */
export async function createGraphQLServer(cfg: Config): Promise<ApolloServer<GraphQLContext>> {
  const armor = new ApolloArmor({
    maxDepth: { n: cfg.GRAPHQL_MAX_DEPTH, exposeLimits: true },
    maxAliases: { n: cfg.GRAPHQL_MAX_ALIASES, exposeLimits: true },
    costLimit: { maxCost: cfg.GRAPHQL_MAX_COST, exposeLimits: true },
    maxDirectives: { n: GRAPHQL_MAX_DIRECTIVES, exposeLimits: true },
    // graphql-armor's token limit throws from a plugin hook, which Apollo 5 answers with 500; the
    // parser's own limit (parseOptions below) answers 400 GRAPHQL_PARSE_FAILED instead.
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: cfg.NODE_ENV === "production" },
  });
  const protection = armor.protect();
  const server = new ApolloServer<GraphQLContext>({
    schema,
    csrfPrevention: true,
    // The process entry (gateway/src/main.ts) owns shutdown: HTTP first, then GraphQL, then the
    // backing services. Apollo's own signal handlers would race it.
    stopOnTerminationSignals: false,
    allowBatchedHttpRequests: false,
    introspection: cfg.NODE_ENV !== "production",
    // Stack traces go to the log, never to a client, whatever NODE_ENV says.
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError(cfg),
    parseOptions: { maxTokens: GRAPHQL_MAX_TOKENS },
    validationRules: protection.validationRules,
    plugins: [
      ...protection.plugins,
      ApolloServerPluginLandingPageDisabled(),
      // Every answer is the signed-in user's own and never cached by a CDN: cache hints would only
      // cost a hook on every field of every answer.
      ApolloServerPluginCacheControlDisabled(),
      errorLoggingPlugin(),
    ],
  });
  await server.start();
  return server;
}
