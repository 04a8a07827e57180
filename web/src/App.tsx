import { ApolloProvider } from "@apollo/client/react";
import { BlueprintProvider } from "@blueprintjs/core";
import { useState } from "react";
import { createBrowserRouter, RouterProvider } from "react-router-dom";
import { Layout } from "./components/Layout";
import { RouteElement } from "./components/RouteElement";
import { createApolloClient } from "./lib/apollo";
import { routes } from "./routes";

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: routes.map((route) => ({ path: route.path, element: <RouteElement route={route} /> })),
  },
]);

/** The whole web app: Blueprint's context, the GraphQL client and the router. */
export function App() {
  const [client] = useState(createApolloClient);
  return (
    <BlueprintProvider>
      <ApolloProvider client={client}>
        <RouterProvider router={router} />
      </ApolloProvider>
    </BlueprintProvider>
  );
}
