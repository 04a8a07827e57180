import { type ApolloLink, HttpLink } from "@apollo/client";
import { recordingFetch } from "./requestId";

/** GraphQL over HTTP: cookies, JSON, and each answer's x-request-id noted for the error screens. */
export function createHttpLink(uri: string): ApolloLink {
  return new HttpLink({
    uri,
    credentials: "include",
    headers: { Accept: "application/json" },
    fetch: recordingFetch,
  });
}
