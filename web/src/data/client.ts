import { ApolloClient, ApolloLink, InMemoryCache } from "@apollo/client";
import { Observable } from "rxjs";
import { BRANDING_TYPENAME, REST_HANDLERS } from "./restHandlers";
import { createRestLink } from "./restLink";

/**
 * Sends GraphQL operations to `uri` over HTTP. HttpLink (and GraphQL's printer) is loaded on the first
 * GraphQL operation, so a page that only reads REST fields (the sign-in page) does not carry it.
 */
function lazyHttpLink(uri: string): ApolloLink {
  let loading: Promise<ApolloLink> | undefined;
  return new ApolloLink(
    (operation, forward) =>
      new Observable((observer) => {
        let subscription: { unsubscribe(): void } | undefined;
        let live = true;
        loading ??= import("./httpLink").then(({ createHttpLink }) => createHttpLink(uri));
        loading.then(
          (link) => {
            if (!live) return;
            const answer = link.request(operation, forward);
            if (!answer) {
              observer.complete();
              return;
            }
            subscription = answer.subscribe(observer);
          },
          (error: unknown) => {
            loading = undefined;
            if (live) observer.error(error);
          },
        );
        return () => {
          live = false;
          subscription?.unsubscribe();
        };
      }),
  );
}

/**
 * Makes the app's data client: one normalised cache for GraphQL and the spec's REST calls (served by
 * the REST link, web/src/data/restLink.ts), same-origin /graphql with the session cookie, read from the
 * cache first, and none of retries, polling or refetch on focus (spec §1 data-layer defaults).
 */
export function createApolloClient(uri = "/graphql", link: ApolloLink = lazyHttpLink(uri)): ApolloClient {
  return new ApolloClient({
    link: ApolloLink.from([createRestLink(REST_HANDLERS), link]),
    cache: new InMemoryCache({
      typePolicies: {
        // one branding record: the public branding (REST) and the admin's settings (GraphQL) are the
        // same object, so a save shows in the top bar without copying it over
        [BRANDING_TYPENAME]: { keyFields: [] },
      },
    }),
    defaultOptions: {
      watchQuery: { fetchPolicy: "cache-first", notifyOnNetworkStatusChange: false },
      query: { fetchPolicy: "cache-first" },
    },
  });
}

let client: ApolloClient | undefined;

/** The app's one data client, made on first use (its cache lives as long as the page). */
export function apolloClient(): ApolloClient {
  client ??= createApolloClient();
  return client;
}
