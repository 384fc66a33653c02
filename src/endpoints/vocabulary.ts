/**
 * GET /vocab: the service's own small vocabulary (docs/vocabulary.md), so that the index keys' IRIs
 * (`{BASE_URL}/vocab#object_count`, …) dereference to their definitions: an `owl:Ontology` and one
 * `rdf:Property` per term with its label and comment. JSON-LD by default, the RDF syntaxes on request, as for
 * every other document of the service.
 */
import { Router } from 'express';
import type { AppContext } from '../engine/app-context.js';
import { RECORD_CACHE_CONTROL } from '../http/caching.js';
import { fixedDocumentHandler } from '../http/document-answer.js';
import type { JsonObject } from '../shaping/jsonld.js';
import { NS } from '../vocab/namespaces.js';
import { serviceVocab, VOCAB_COMMENTS } from './index-context.js';

/** The vocabulary document for the service at `base`. */
export function vocabularyDocument(base: string): JsonObject {
  const ontology = `${base}/vocab`;
  const vocab = serviceVocab(base);
  return {
    '@context': { rdf: NS.rdf, rdfs: NS.rdfs, owl: 'http://www.w3.org/2002/07/owl#', dct: 'http://purl.org/dc/terms/' },
    '@graph': [
      {
        '@id': ontology,
        '@type': 'owl:Ontology',
        'rdfs:label': 'Terms of the museum linked-data service',
        'rdfs:comment':
          'The keys of the index documents (types, materials, nationalities, roles, production density, colours) that no existing vocabulary states exactly. Every other key of the service maps to CIDOC-CRM, Hydra, RDFS, SKOS, schema.org or Dublin Core terms.',
        'rdfs:seeAlso': { '@id': `${base}/docs` },
      },
      ...Object.entries(VOCAB_COMMENTS).map(([term, comment]) => ({
        '@id': `${vocab}${term}`,
        '@type': 'rdf:Property',
        'rdfs:label': term,
        'rdfs:comment': comment,
        'rdfs:isDefinedBy': { '@id': ontology },
      })),
    ],
  };
}

/** GET/HEAD /vocab (mount at the root). */
export function vocabularyRoutes(ctx: Pick<AppContext, 'config'>): Router {
  const router = Router();
  router.get('/vocab', fixedDocumentHandler(JSON.stringify(vocabularyDocument(ctx.config.baseUrl)), RECORD_CACHE_CONTROL));
  return router;
}
