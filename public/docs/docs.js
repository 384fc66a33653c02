/* global window, document */
// The API documentation at /docs: Swagger UI on this service's own OpenAPI document. Nothing is fetched from
// another host: no validator badge, no top bar (so no other document can be loaded), no remote references.
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('docs-config').textContent);
  window.ui = window.SwaggerUIBundle({
    url: new URL(config.url, window.location.href).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    tryItOutEnabled: false,
    supportedSubmitMethods: ['get', 'head', 'post'],
  });
})();
