/* global window, document */
// Deep zoom of a record's images on its page for people (docs/html.md): OpenSeadragon, served by this service
// from node_modules, reads each image's IIIF info.json from this service's IIIF server. Without script the
// page still shows the thumbnails and links to the full images.
(function () {
  'use strict';
  var element = document.getElementById('viewer');
  if (!element || !window.OpenSeadragon) return;
  var sources = JSON.parse(element.getAttribute('data-sources') || '[]');
  if (sources.length === 0) return;
  element.hidden = false;
  window.OpenSeadragon({
    element: element,
    prefixUrl: '/assets/pages/openseadragon/images/',
    tileSources: sources,
    sequenceMode: sources.length > 1,
    showNavigator: false,
    crossOriginPolicy: false,
  });
})();
