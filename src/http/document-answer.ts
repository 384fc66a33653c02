/**
 * Answers with a JSON-LD document that is fixed for the life of the app (the DCAT catalog, the vocabulary): JSON-LD
 * by default, its graph in an RDF syntax when the client prefers one (src/http/negotiation.ts), as every other
 * document of the service. Each syntax is written once, with its tag.
 */
import type { RequestHandler } from 'express';
import { sendAnswer } from './answer.js';
import { weakEtag } from './caching.js';
import { JSON_LD_CONTENT_TYPE } from './json-ld.js';
import { documentBody, negotiateRepresentation, rdfContentType, varyOnAccept } from './negotiation.js';

/** A GET handler for the document `json`. */
export function fixedDocumentHandler(json: string, cacheControl: string): RequestHandler {
  const bodies = new Map<string, Promise<{ body: string; etag: string }>>();
  return async (req, res) => {
    const representation = negotiateRepresentation(req);
    varyOnAccept(res);
    const key = representation.kind === 'rdf' ? representation.syntax : 'json-ld';
    let made = bodies.get(key);
    if (!made) {
      made = documentBody(json, representation).then((body) => ({ body, etag: weakEtag(body) }));
      bodies.set(key, made);
    }
    const { body, etag } = await made;
    await sendAnswer(req, res, {
      validators: { etag },
      cacheControl,
      contentType: representation.kind === 'rdf' ? rdfContentType(representation.syntax) : JSON_LD_CONTENT_TYPE,
      body,
    });
  };
}
