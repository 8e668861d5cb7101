// Starts Swagger UI on the page served at /api/docs/. It lives in a file
// rather than an inline <script> so the page's Content-Security-Policy can
// allow scripts from 'self' only. The spec URL comes from the container's
// data-spec-url attribute, which the server fills in.
(function () {
  "use strict";

  var root = document.getElementById("swagger-ui");

  SwaggerUIBundle({
    url: root.dataset.specUrl,
    domNode: root,
    deepLinking: true,
    // BaseLayout needs only swagger-ui-bundle.js; the standalone layout adds a
    // top bar for typing in another spec URL, which this page has no use for.
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    // The default validator is an online service (validator.swagger.io); the
    // docs must work offline and must not send the spec anywhere.
    validatorUrl: null
  });
})();
