/* global window, document */
// The query editor at /sparql: YASGUI on this endpoint, with the example queries of the page as buttons.
(function () {
  'use strict';
  var examples = JSON.parse(document.getElementById('sparql-examples').textContent);
  var endpoint = window.location.origin + window.location.pathname.replace(/\/+$/, '');
  var yasgui = new window.Yasgui(document.getElementById('yasgui'), {
    requestConfig: { endpoint: endpoint, method: 'POST' },
    copyEndpointOnNewTab: true,
    // Keep the editor on this service: no remembered state, no endpoint catalogue, no remote autocompletion.
    persistenceId: null,
    endpointCatalogueOptions: { getData: function () { return []; } },
    yasqe: { value: examples[0].query, autocompleters: ['prefixes', 'variables'] },
  });
  document.querySelectorAll('button.example').forEach(function (button) {
    button.addEventListener('click', function () {
      var example = examples.find(function (e) { return e.id === button.dataset.example; });
      var tab = yasgui.getTab();
      tab.setQuery(example.query);
      tab.getYasqe().focus();
    });
  });
  window.museumYasgui = yasgui;
})();
