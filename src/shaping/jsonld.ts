/**
 * Framing with jsonld.js (the other importers: records/canonical-graph.ts, store/remote/results.ts). Frames and
 * contexts are local files read once (frames.ts); the document loader refuses every URL, so no JSON-LD code path
 * can reach the network (a context or frame that names a remote URL fails loudly instead).
 */
import jsonld from 'jsonld';
import { refuseRemoteDocuments, type JsonObject } from './frames.js';

export { FRAMES_DIR, loadFrame, refuseRemoteDocuments, RemoteDocumentRefused, type JsonObject, type JsonValue } from './frames.js';

type Frame = Parameters<typeof jsonld.frame>[1];

const OPTIONS = { documentLoader: refuseRemoteDocuments, safe: true } as const;

/** N-Quads → framed, compacted JSON-LD (jsonld.js, the reference implementation). */
export async function frameNQuads(nquads: string, frame: JsonObject): Promise<JsonObject> {
  const expanded = await jsonld.fromRDF(nquads, { format: 'application/n-quads' });
  const framed = await jsonld.frame(expanded, frame as Frame, {
    ...OPTIONS,
    embed: '@always',
    omitGraph: true,
  } as jsonld.Options.Frame);
  return framed as unknown as JsonObject;
}

/** A JSON-LD document (with an inline context) as N-Quads: the RDF graph of a shaped document. */
export async function documentToNQuads(document: JsonObject): Promise<string> {
  return (await jsonld.toRDF(document as Parameters<typeof jsonld.toRDF>[0], {
    ...OPTIONS,
    format: 'application/n-quads',
  } as jsonld.Options.ToRdf)) as unknown as string;
}
