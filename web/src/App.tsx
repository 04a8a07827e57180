import { ApolloProvider } from "@apollo/client/react";
import { BlueprintProvider } from "@blueprintjs/core";
import { BrowserRouter, Route, Routes } from "react-router-dom";
import { apolloClient } from "./data/client";
import { Layout } from "./features/shell/Layout";
import { RouteElement } from "./features/shell/RouteElement";
import { routes } from "./routes";
import { ErrorBoundary } from "./ui/ErrorBoundary";

/**
 * The whole web app: an error boundary (never a blank page), Blueprint's context, the one data client
 * (Apollo Client: GraphQL and the spec's REST calls in one cache, web/src/data) and the router.
 */
export function App() {
  return (
    <ErrorBoundary name="root">
      <BlueprintProvider>
        <ApolloProvider client={apolloClient()}>
          <BrowserRouter>
            <Routes>
              <Route element={<Layout />}>
                {routes.map((route) => (
                  <Route key={route.path} path={route.path} element={<RouteElement route={route} />} />
                ))}
              </Route>
            </Routes>
          </BrowserRouter>
        </ApolloProvider>
      </BlueprintProvider>
    </ErrorBoundary>
  );
}
