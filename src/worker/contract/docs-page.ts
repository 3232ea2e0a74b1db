/** Where the page's script is served: Workers static assets (public/_docs, see tools/docs-assets.mjs). */
const scalarScriptPath = "/_docs/scalar.js";

/**
 * Scalar's API reference, configured to load nothing from elsewhere: no web fonts, no developer
 * toolbar, no telemetry, no hosted API client, no AI chat and no MCP offer, all of which call
 * Scalar's servers.
 */
const configuration = {
  url: "/openapi.json",
  withDefaultFonts: false,
  showDeveloperTools: "never",
  telemetry: false,
  hideClientButton: true,
  agent: { disabled: true },
  mcp: { disabled: true },
};

/** The page of GET /docs. */
export const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tower-edge API</title>
</head>
<body>
<div id="app"></div>
<script src="${scalarScriptPath}"></script>
<script>Scalar.createApiReference("#app", ${JSON.stringify(configuration)});</script>
</body>
</html>
`;
