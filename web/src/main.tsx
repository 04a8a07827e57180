import "@blueprintjs/core/lib/css/blueprint.css";
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { config as zodConfig } from "zod/v4/core";
import { App } from "./App";
import { startTheme } from "./lib/theme";

// zod compiles object schemas with `new Function` where it may, and finds out by trying one, which
// the portal's CSP (script-src 'self') refuses and reports: the web app tells it not to try.
zodConfig({ jitless: true });

// the stored light/dark theme goes on <body> before the first render (index.html may run no inline
// script under the CSP, so this is as early as it can be)
startTheme();

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
