import { BlueprintProvider } from "@blueprintjs/core";
import { BrowserRouter, Route, Routes } from "react-router-dom";
import { Layout } from "./features/shell/Layout";
import { RouteElement } from "./features/shell/RouteElement";
import { routes } from "./routes";

/**
 * The whole web app: Blueprint's context and the router. GraphQL is provided by the screens that
 * use it (lib/GraphQLProvider), so the first page loads without Apollo Client.
 */
export function App() {
  return (
    <BlueprintProvider>
      <BrowserRouter>
        <Routes>
          <Route element={<Layout />}>
            {routes.map((route) => (
              <Route key={route.path} path={route.path} element={<RouteElement route={route} />} />
            ))}
          </Route>
        </Routes>
      </BrowserRouter>
    </BlueprintProvider>
  );
}
