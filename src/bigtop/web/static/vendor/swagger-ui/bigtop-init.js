// Starts the vendored Swagger UI on the server's OpenAPI schema (a file of its own: the
// Content-Security-Policy allows no inline script). No validator badge: it would ask
// another host.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: true,
});
