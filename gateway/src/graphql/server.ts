import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { unwrapResolverError } from "@apollo/server/errors";
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from "@apollo/server/plugin/disabled";
import { ApolloArmor } from "@escape.tech/graphql-armor";
import type { Config } from "@services/shared/config";
import { isDatabaseUnavailable } from "@services/shared/dbUnavailable";
import { appErrorCodes, isAppError } from "@services/shared/errors";
import { logger } from "@services/shared/logger";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import type { Logger } from "pino";
import { normalizeError, toGraphQLError } from "../errors";
import type { GraphQLContext } from "./context";
import { hashOperationsWithCryptoLoadedOnce } from "./queryHash";
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

/** Codes of a request the server refused as a whole: answered 400 (Apollo answers some with 200). */
const REQUEST_ERROR_CODES = new Set([
  "BAD_REQUEST",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
]);

const INTERNAL_MESSAGE = "Internal server error";

/** What graphql-armor's blockFieldSuggestion takes out of an error message, and puts instead. */
const DID_YOU_MEAN = /Did you mean ".+"/g;
const SUGGESTION_MASK = "[Suggestion hidden]";

/**
 * Whether `error` is GraphQL's or Apollo's own verdict on the request, not a failure while running
 * it: a GraphQLError made without an underlying exception and outside any field ("Schema is not
 * configured to execute subscription operation", "Unsupported persisted query version"...). Its
 * message describes the request, never the server. Anything a resolver throws is wrapped with its
 * originalError and a path, so it never passes this test.
 */
function isRequestVerdict(error: unknown): boolean {
  return (
    error instanceof GraphQLError &&
    error.originalError === undefined &&
    (error.path === undefined || error.path.length === 0)
  );
}

/** Whether an error is the client's doing: an AppError, a client error code, or a request verdict. */
function isClientError(error: unknown, formatted?: GraphQLFormattedError): boolean {
  const original = unwrapResolverError(error);
  if (isAppError(original)) return true;
  if (original instanceof GraphQLError && APP_ERROR_CODES.has(String(original.extensions.code))) return true;
  const code = formatted?.extensions?.code;
  if (typeof code === "string" && CLIENT_ERROR_CODES.has(code)) return true;
  return isRequestVerdict(error);
}

/**
 * What a client sees of an error, the same in every mode (shared DECISIONS, Operations): AppErrors
 * through the shared mapper, GraphQL's and Apollo's verdicts on the request as they are (code
 * BAD_REQUEST when they carry none), and anything else as "Internal server error" with code
 * INTERNAL_SERVER_ERROR (the plugin below adds the request id; the detail goes to the log).
 */
export function formatGraphQLError() {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (isAppError(original) || isDatabaseUnavailable(original)) {
      const mapped = toGraphQLError(normalizeError(original));
      return { ...formatted, message: mapped.message, extensions: mapped.extensions };
    }
    // an AppError made a top-level error on purpose (an outage: ./types/identityRun), already mapped
    if (original instanceof GraphQLError && APP_ERROR_CODES.has(String(original.extensions.code))) {
      return formatted;
    }
    const code = formatted.extensions?.code;
    if (typeof code === "string" && CLIENT_ERROR_CODES.has(code)) return formatted;
    if (isRequestVerdict(error)) {
      return { ...formatted, extensions: { ...formatted.extensions, code: "BAD_REQUEST" } };
    }
    return {
      message: INTERNAL_MESSAGE,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    };
  };
}

/**
 * Logs every error with the request id: unexpected ones at error level with their detail, a
 * request the client got wrong (not a typed AppError result) at warn with its code (never a message
 * that could quote a variable). On the way out it gives each masked error the request id to quote,
 * and answers a request refused as a whole with 400.
 */
function errorPlugin(log: Logger, options: { hideSuggestions: boolean }): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue, operationName }) {
          // graphql-armor's blockFieldSuggestion, done here rather than by a plugin of its own (one
          // request listener less on every request): the same replacement, before anything reads it
          if (options.hideSuggestions) {
            for (const error of errors) error.message = error.message.replace(DID_YOU_MEAN, SUGGESTION_MASK);
          }
          for (const error of errors) {
            const context = { requestId: contextValue.requestId, operationName, path: error.path };
            if (isAppError(unwrapResolverError(error))) continue;
            if (isClientError(error, { message: error.message, extensions: error.extensions })) {
              // a verdict's message describes the request; others may quote a variable's value
              const verdict = isRequestVerdict(error) ? { message: error.message } : {};
              log.warn(
                { ...context, code: error.extensions.code ?? "BAD_REQUEST", ...verdict },
                "GraphQL request refused",
              );
            } else {
              log.error({ ...context, err: unwrapResolverError(error) }, "GraphQL resolver failed");
            }
          }
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== "single") return;
          const result = response.body.singleResult;
          const errors = result.errors;
          if (!errors) return;
          result.errors = errors.map((e) =>
            e.extensions?.code === "INTERNAL_SERVER_ERROR"
              ? { ...e, extensions: { ...e.extensions, requestId: contextValue.requestId } }
              : e,
          );
          const refusedWhole = errors.every((e) => {
            const code = e.extensions?.code;
            return e.path === undefined && typeof code === "string" && REQUEST_ERROR_CODES.has(code);
          });
          if (refusedWhole && (response.http.status ?? 200) < 400) response.http.status = 400;
        },
      };
    },
  };
}

/**
 * The started Apollo Server of the portal: CSRF prevention, no batching, no persisted queries (the
 * web client sends whole documents), introspection outside production, unexpected errors masked in
 * every mode, and graphql-armor limits on depth, aliases, cost and directives (GRAPHQL_MAX_* in the
 * configuration) and on tokens (parser limit). `options.log` receives the error log (default: the
 * process logger's "graphql" child).
 * @throws when the schema or a plugin fails to start.
 */
export async function createGraphQLServer(
  cfg: Config,
  options: { log?: Logger } = {},
): Promise<ApolloServer<GraphQLContext>> {
  const armor = new ApolloArmor({
    maxDepth: { n: cfg.GRAPHQL_MAX_DEPTH, exposeLimits: true },
    maxAliases: { n: cfg.GRAPHQL_MAX_ALIASES, exposeLimits: true },
    costLimit: { maxCost: cfg.GRAPHQL_MAX_COST, exposeLimits: true },
    maxDirectives: { n: GRAPHQL_MAX_DIRECTIVES, exposeLimits: true },
    // graphql-armor's token limit throws from a plugin hook, which Apollo 5 answers with 500; the
    // parser's own limit (parseOptions below) answers 400 GRAPHQL_PARSE_FAILED instead.
    maxTokens: { enabled: false },
    // done by errorPlugin below (the same mask), which every request runs anyway
    blockFieldSuggestion: { enabled: false },
  });
  const protection = armor.protect();
  // Apollo hashes every operation's text: with node:crypto loaded once, not required per request
  hashOperationsWithCryptoLoadedOnce();
  const server = new ApolloServer<GraphQLContext>({
    schema,
    csrfPrevention: true,
    // The process entry (gateway/src/main.ts) owns shutdown: HTTP first, then GraphQL, then the
    // backing services. Apollo's own signal handlers would race it.
    stopOnTerminationSignals: false,
    allowBatchedHttpRequests: false,
    // Automatic persisted queries would let anyone fill a server-side cache; the web client does not
    // use them. A request that asks for one is answered 400 PERSISTED_QUERY_NOT_SUPPORTED.
    persistedQueries: false,
    introspection: cfg.NODE_ENV !== "production",
    // Stack traces go to the log, never to a client, whatever NODE_ENV says.
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError(),
    parseOptions: { maxTokens: GRAPHQL_MAX_TOKENS },
    validationRules: protection.validationRules,
    plugins: [
      ...protection.plugins,
      ApolloServerPluginLandingPageDisabled(),
      // Every answer is the signed-in user's own and never cached by a CDN: cache hints would only
      // cost a hook on every field of every answer.
      ApolloServerPluginCacheControlDisabled(),
      // Inline traces are for a federated subgraph, which this schema is not: Apollo would install
      // the plugin anyway and call it on every request only to find it has nothing to do.
      ApolloServerPluginInlineTraceDisabled(),
      errorPlugin(options.log ?? logger("graphql"), { hideSuggestions: cfg.NODE_ENV === "production" }),
    ],
  });
  await server.start();
  return server;
}
