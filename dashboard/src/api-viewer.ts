// The API reference page at /_/api/: Swagger UI (swagger-ui-dist, the package's own prebuilt
// bundle, emitted unchanged as a hashed asset) showing this host's GET /api/openapi.json. Loaded
// by a same-origin <script src>, so the dashboard's CSP (no inline script, no eval) holds.
import bundleUrl from "swagger-ui-dist/swagger-ui-bundle.js?url";
import "swagger-ui-dist/swagger-ui.css";
import "./api-viewer.css";

interface SwaggerUIGlobal {
  (options: Record<string, unknown>): unknown;
}

const script = document.createElement("script");
script.src = bundleUrl;
script.addEventListener("load", () => {
  const SwaggerUIBundle = (window as unknown as { SwaggerUIBundle: SwaggerUIGlobal }).SwaggerUIBundle;
  SwaggerUIBundle({
    // The dashboard host is the workspace's own: its document, its routes, same origin.
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    // No call to the public validator service: nothing leaves this origin.
    validatorUrl: null,
    tryItOutEnabled: false,
  });
});
document.head.append(script);
