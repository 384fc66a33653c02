/** What the routes need to answer a person: the page's language, the alternates as a Link header, nouns. */
import type { AppContext } from '../engine/app-context.js';
import type { ViewContext } from './jsonld-view.js';
import { PID } from '../vocab/iris.js';
import type { RecordKinds } from '../vocab/record-kinds.js';
import { RECORD_FORMATS } from './record-page.js';

export { pageLanguage } from './messages.js';

/**
 * `Link` of a record answer (RFC 8288): each representation at its own URL (`?format=`), so a client or a
 * person can follow one without setting Accept.
 */
export function alternatesLinkHeader(iri: string): string {
  return [...RECORD_FORMATS.map((f) => ({ format: f.format, type: f.type })), { format: 'html', type: 'text/html' }]
    .map((f) => `<${iri}?format=${f.format}>; rel="alternate"; type="${f.type}"`)
    .join(', ');
}


/** The base URLs a page links by path: BASE_URL, and the IIIF router's own when it differs. */
export const viewContext = (ctx: Pick<AppContext, 'iris' | 'iiifBase' | 'kinds'>): ViewContext => {
  const served = servedPaths(ctx.kinds);
  return {
    bases: [ctx.iris.base, ...(ctx.iiifBase !== undefined && ctx.iiifBase !== ctx.iris.base ? [ctx.iiifBase.replace(/\/+$/, '')] : [])],
    serves: (path) => served.test(path),
  };
};

const servedPatterns = new WeakMap<RecordKinds, RegExp>();

/** The paths of this service a record's values may name: records (the pid rule), collections, images and manifests. */
function servedPaths(kinds: RecordKinds): RegExp {
  let pattern = servedPatterns.get(kinds);
  if (pattern === undefined) {
    pattern = new RegExp(`^(?:/v2/id/(?:${kinds.kindAlternatives})/${PID.source.slice(1, -1)}|/v2/id/(?:${kinds.collectionAlternatives})|/iiif/.+)(?:\\?.*)?$`);
    servedPatterns.set(kinds, pattern);
  }
  return pattern;
}
