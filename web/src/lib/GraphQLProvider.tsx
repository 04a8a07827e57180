import type { ApolloClient } from "@apollo/client";
import { ApolloProvider } from "@apollo/client/react";
import type { ReactNode } from "react";
import { createApolloClient } from "./apollo";

let client: ApolloClient | undefined;

/** The app's one GraphQL client, made on first use (its cache lives as long as the page). */
export function apolloClient(): ApolloClient {
  client ??= createApolloClient();
  return client;
}

/** Props of the GraphQL provider. */
export interface GraphQLProviderProps {
  children: ReactNode;
}

/**
 * Gives `children` the app's GraphQL client. Only the parts that use GraphQL (the appointment
 * screens) wrap themselves in it, so Apollo Client loads with them and not with the first page.
 */
export function GraphQLProvider({ children }: GraphQLProviderProps) {
  return <ApolloProvider client={apolloClient()}>{children}</ApolloProvider>;
}
