import "graphiql/setup-workers/vite";
import "graphiql/style.css";
import "./page.css";
import { createGraphiQLFetcher } from "@graphiql/toolkit";
import { GraphiQL } from "graphiql";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

// Self-hosted GraphiQL for development: same origin, so the session cookie goes along; the
// apollo-require-preflight header satisfies Apollo's CSRF prevention for every request.
const fetcher = createGraphiQLFetcher({
  url: new URL("/graphql", window.location.origin).toString(),
  headers: { "apollo-require-preflight": "true" },
  fetch: (input, init) => fetch(input, { ...init, credentials: "same-origin" }),
});

const container = document.getElementById("graphiql");
if (container) {
  createRoot(container).render(
    <StrictMode>
      <GraphiQL
        fetcher={fetcher}
        defaultQuery={"{\n  health\n  serverConfig {\n    proAppUrl\n    serverTime\n  }\n}\n"}
      />
    </StrictMode>,
  );
}
