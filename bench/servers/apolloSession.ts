import type { IncomingMessage } from "node:http";
import { ApolloServer } from "@apollo/server";
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from "@apollo/server/plugin/disabled";
import { expressMiddleware } from "@as-integrations/express5";
import express from "express";
import { currentUser, env, redis, stopOnSigterm } from "./sessionRead";

// The GraphQL framework's ceiling in benchmark P2: Apollo Server with its Express 5 integration and
// nothing else (no session middleware, no Pothos, no armour, no error plugin), answering `{ me }`
// with exactly the bare server's work for GET /api/user (./sessionRead.ts), the optional plugins off
// as in the portal. Against Express alone (./expressSession.ts) it measures what Apollo itself costs
// per request; the portal's GraphQL cannot do better than this.

const TYPE_DEFS = `#graphql
  type User {
    id: Int!
    uniqueId: String!
    username: String!
    email: String!
    firstName: String!
    lastName: String!
    phone: String
    companyName: String
    userType: String!
    notes: String
    createdAt: String!
    lastLoginAt: String
    accessLevel: String!
    esrtSynced: Boolean!
    userStatus: String!
    emailVerified: Boolean!
    securityQuestionsSet: Boolean!
    securityLevel: String!
    permissions: [String!]!
  }
  type Query {
    me: User
  }
`;

interface Context {
  req: IncomingMessage;
}

async function main(): Promise<void> {
  await redis.connect();
  const server = new ApolloServer<Context>({
    typeDefs: TYPE_DEFS,
    resolvers: {
      Query: {
        me: async (_parent: unknown, _args: unknown, { req }: Context) => {
          const answer = await currentUser(req);
          return answer.status === 200 ? answer.body : null;
        },
      },
    },
    csrfPrevention: true,
    stopOnTerminationSignals: false,
    allowBatchedHttpRequests: false,
    persistedQueries: false,
    introspection: false,
    includeStacktraceInErrorResponses: false,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
    ],
  });
  await server.start();
  const app = express();
  app.disable("x-powered-by");
  app.use(
    "/graphql",
    express.json(),
    expressMiddleware(server, { context: async ({ req }): Promise<Context> => ({ req }) }),
  );
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  stopOnSigterm(app.listen(Number(env("PORT")), "127.0.0.1"), () => server.stop());
}

void main();
