import { ApolloClient, HttpLink, InMemoryCache } from "@apollo/client";

/**
 * Makes the GraphQL client: same-origin /graphql with the session cookie, a normalised cache read
 * first, and none of retries, polling or refetch on focus (spec §1 data-layer defaults).
 */
export function createApolloClient(uri = "/graphql"): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri, credentials: "include", headers: { Accept: "application/json" } }),
    cache: new InMemoryCache(),
    defaultOptions: {
      watchQuery: { fetchPolicy: "cache-first", notifyOnNetworkStatusChange: false },
      query: { fetchPolicy: "cache-first" },
    },
  });
}
