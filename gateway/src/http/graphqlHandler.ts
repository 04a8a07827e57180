import { type ApolloServer, type BaseContext, type ContextFunction, HeaderMap } from "@apollo/server";
import type { Request, RequestHandler, Response } from "express";

/**
 * Apollo Server behind Express: @as-integrations/express5's expressMiddleware, answer for answer (the
 * same 500 without a parsed body, headers, status and body, streamed answers included), with less
 * work per request: the request's headers are copied into Apollo's map without an entries array,
 * and the query string is cut from the URL instead of parsed by the legacy url.parse.
 */
export function graphqlHandler<TContext extends BaseContext>(
  server: ApolloServer<TContext>,
  options: { context: ContextFunction<[{ req: Request; res: Response }], TContext> },
): RequestHandler {
  server.assertStarted("graphqlHandler()");
  const context = options.context;
  return async (req, res) => {
    if (!("body" in req)) {
      res.status(500);
      res.send(
        "`req.body` is not set; this probably means you forgot to set up the " +
          "`json` middleware before the Apollo Server middleware.",
      );
      return;
    }
    const headers = new HeaderMap();
    const incoming = req.headers;
    for (const key in incoming) {
      const value = incoming[key];
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
    }
    const url = req.url;
    const q = url.indexOf("?");
    const hash = url.indexOf("#");
    const search = q < 0 || (hash >= 0 && hash < q) ? "" : url.slice(q, hash > q ? hash : undefined);
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method.toUpperCase(), headers, search, body: req.body },
      context: () => context({ req, res }),
    });
    for (const [key, value] of answer.headers) res.setHeader(key, value);
    res.statusCode = answer.status || 200;
    if (answer.body.kind === "complete") {
      res.send(answer.body.string);
      return;
    }
    for await (const chunk of answer.body.asyncIterator) {
      res.write(chunk);
      const flush = (res as Response & { flush?: () => void }).flush;
      if (typeof flush === "function") flush.call(res);
    }
    res.end();
  };
}
