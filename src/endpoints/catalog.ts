/**
 * The DCAT catalog (spec, "DCAT catalog record"; served at /v2/ and /v2/dcat). Texts and structure are the
 * real service's current catalog (reference/dcat-catalog.jsonld) word for word; only the host changes, every
 * URI of the service being built from BASE_URL:
 *   - catalog `@id` is `{base}/v2/`;
 *   - dataset `@id`, `dcat:accessURL` and `dcat:endpointURL` are the endpoint URL `{base}/v2/id/<name>`;
 *   - `dcat:endpointDescription` is this service's documentation page `{base}/docs` (the real service's
 *     `/api-docs`, which redirects there), so every link of the catalog answers on the deployment itself;
 *   - `foaf:homepage` is `{base}`; the publisher and its homepage are the museum's own, not the deployment's.
 * The datasets are the reference's, in its order, plus the production density.
 * Added to the reference: each record collection's N-Quads dump as a second `dcat:distribution`, the whole
 * collection's dump and the change feed (/v2/changes) as the catalog's own `dcat:distribution` (a DCAT catalog
 * is a dataset) and the SPARQL endpoint as a `dcat:DataService` under `dcat:service`.
 * The document depends on nothing but BASE_URL, so it is built once and served with a fixed ETag.
 */
import { Router, type RequestHandler } from 'express';
import type { AppContext } from '../app-context.js';
import { sendAnswer } from '../http/answer.js';
import { RECORD_CACHE_CONTROL, weakEtag } from '../http/caching.js';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import { AUTHORITY, MUSEUM, NS } from '../vocab/namespaces.js';

/** The human documentation page of the API (rendered from /openapi.json), every dataset's endpoint description. */
export const API_DOCS_PATH = '/docs';

type LangString = { '@value': string; '@language': 'nl' | 'en' | 'fr' };

/** Texts in the catalog's language order: nl, en, fr. */
const texts = (nl: string, en: string, fr: string): LangString[] => [
  { '@value': nl, '@language': 'nl' },
  { '@value': en, '@language': 'en' },
  { '@value': fr, '@language': 'fr' },
];

interface DatasetText {
  /** The path segment under /v2/id/. */
  name: string;
  crmClass: string;
  title: LangString[];
  description: LangString[];
  /** `rdfs:label` of the JSON-LD distribution. */
  distribution: string;
  /** Record collections also have a gzip N-Quads dump (endpoints/dumps.ts). */
  dump?: true;
}

/**
 * The datasets in the reference's order with its texts (reference/dcat-catalog.jsonld), the colour index
 * (`E26_Physical_Feature`) fifth as there; the production density, which the reference does not list, comes last.
 */
const DATASETS: readonly DatasetText[] = [
  {
    name: 'objects',
    crmClass: 'E22_Human-Made_Object',
    title: texts('Objecten', 'Objects', 'Objets'),
    description: texts(
      'Alle gepubliceerde objecten uit de collectie van Design Museum Gent. Ondersteunt filtering op type, materiaal, kleur, tentoonstellingsstatus en meer.',
      'All published objects from the Design Museum Gent collection. Supports filtering by type, material, color, display status and more.',
      "Tous les objets publiés de la collection du Design Museum Gent. Prend en charge le filtrage par type, matériau, couleur, statut d'exposition et plus.",
    ),
    distribution: 'Paginated JSON-LD collection',
    dump: true,
  },
  {
    name: 'agents',
    crmClass: 'E39_Actor',
    title: texts('Agenten', 'Agents', 'Agents'),
    description: texts(
      'Alle agenten (personen en organisaties) gerelateerd aan de collectie van Design Museum Gent. Verrijkt met Wikipedia-biografieën en tentoonstellingsdeelnames.',
      'All agents (persons and organisations) related to the Design Museum Gent collection. Enriched with Wikipedia biographies and exhibition participation.',
      'Tous les agents (personnes et organisations) liés à la collection du Design Museum Gent. Enrichis avec des biographies Wikipedia et des participations aux expositions.',
    ),
    distribution: 'Paginated JSON-LD collection',
    dump: true,
  },
  {
    name: 'exhibitions',
    crmClass: 'E7_Activity',
    title: texts('Tentoonstellingen', 'Exhibitions', 'Expositions'),
    description: texts(
      'Alle tentoonstellingen uit het archief van Design Museum Gent, met meertalige titels, beschrijvingen en links naar getoonde collectieobjecten.',
      'All exhibitions from the Design Museum Gent archive, with multilingual titles, descriptions and links to collection objects shown.',
      'Toutes les expositions des archives du Design Museum Gent, avec des titres et descriptions multilingues et des liens vers les objets présentés.',
    ),
    distribution: 'Paginated JSON-LD collection',
    dump: true,
  },
  {
    name: 'concepts',
    crmClass: 'E55_Type',
    title: texts('Thesaurus', 'Thesaurus', 'Thésaurus'),
    description: texts(
      'Thesaurus met termen gebruikt voor de beschrijving van objecten in de collectie van Design Museum Gent, inclusief materialen, technieken en objecttypes.',
      'Thesaurus of terms used to describe objects in the Design Museum Gent collection, including materials, techniques and object types.',
      "Thésaurus des termes utilisés pour décrire les objets de la collection du Design Museum Gent, incluant matériaux, techniques et types d'objets.",
    ),
    distribution: 'Paginated JSON-LD collection',
    dump: true,
  },
  {
    name: 'colors',
    crmClass: 'E26_Physical_Feature',
    title: texts('Kleurenindex', 'Color index', 'Index des couleurs'),
    description: texts(
      'Kleurenstatistieken over de volledige collectie, gewogen op basis van dominantiepercentages. Inclusief basiskleurcategorieën en CSS-kleurnamen.',
      'Color statistics across the full collection, weighted by dominance percentages. Includes base color categories and CSS color names.',
      "Statistiques de couleurs sur l'ensemble de la collection, pondérées par les pourcentages de dominance. Inclut les catégories de couleurs de base et les noms de couleurs CSS.",
    ),
    distribution: 'Color index JSON-LD',
  },
  {
    name: 'types',
    crmClass: 'E55_Type',
    title: texts('Objecttypes', 'Object types', "Types d'objets"),
    description: texts(
      'Alle objecttypes aanwezig in de collectie met objectaantallen.',
      'All object types present in the collection with object counts.',
      "Tous les types d'objets présents dans la collection avec le nombre d'objets.",
    ),
    distribution: 'Type index JSON-LD',
  },
  {
    name: 'materials',
    crmClass: 'E57_Material',
    title: texts('Materialen', 'Materials', 'Matériaux'),
    description: texts(
      'Alle materialen aanwezig in de collectie met objectaantallen.',
      'All materials present in the collection with object counts.',
      "Tous les matériaux présents dans la collection avec le nombre d'objets.",
    ),
    distribution: 'Material index JSON-LD',
  },
  {
    name: 'nationalities',
    crmClass: 'E55_Type',
    title: texts('Nationaliteiten', 'Nationalities', 'Nationalités'),
    description: texts(
      'Alle nationaliteiten aanwezig in de agentrecords met agentaantallen.',
      'All nationalities present in the agent records with agent counts.',
      "Toutes les nationalités présentes dans les enregistrements d'agents avec le nombre d'agents.",
    ),
    distribution: 'Nationality index JSON-LD',
  },
  {
    name: 'roles',
    crmClass: 'E55_Type',
    title: texts('Rollen', 'Roles', 'Rôles'),
    description: texts(
      'Alle rollen die agenten spelen in de collectie van Design Museum Gent (ontwerper, producent) met agentaantallen.',
      'All roles agents play in the Design Museum Gent collection (designer, producer) with agent counts.',
      "Tous les rôles joués par les agents dans la collection du Design Museum Gent (designer, producteur) avec le nombre d'agents.",
    ),
    distribution: 'Role index JSON-LD',
  },
  {
    name: 'production',
    crmClass: 'E52_Time-Span',
    title: texts('Productiedichtheid', 'Production density', 'Densité de production'),
    description: texts(
      'Hoeveel van de gepubliceerde collectie in elke periode gemaakt werd: elk gedateerd object weegt 1, gespreid over de jaren van zijn datering.',
      'How much of the published collection was being made in each period: each dated object weighs 1, spread over the years of its dating.',
      'Quelle part de la collection publiée a été produite à chaque période : chaque objet daté pèse 1, réparti sur les années de sa datation.',
    ),
    distribution: 'Production density JSON-LD',
  },
];

/** The record collections: the datasets with a dump, which the SPARQL endpoint serves too. */
const RECORD_DATASETS = DATASETS.filter((d) => d.dump);

/** A gzip-compressed N-Quads dump served under /v2/dumps/ (endpoints/dumps.ts). */
const dumpDistribution = (base: string, file: string, label: string): Record<string, unknown> => ({
  '@type': 'dcat:Distribution',
  'dct:format': 'application/n-quads',
  'dcat:accessURL': { '@id': `${base}/v2/dumps/${file}` },
  'dcat:downloadURL': { '@id': `${base}/v2/dumps/${file}` },
  'dcat:mediaType': 'application/n-quads',
  'dcat:compressFormat': 'application/gzip',
  'rdfs:label': label,
});

/** The change feed (src/changes/): every Create, Update and Delete of a public record, as IIIF Change Discovery 1.0. */
const changeFeedDistribution = (base: string): Record<string, unknown> => ({
  '@type': 'dcat:Distribution',
  'dct:format': 'application/ld+json',
  'dct:conformsTo': { '@id': 'https://iiif.io/api/discovery/1.0/' },
  'dcat:accessURL': { '@id': `${base}/v2/changes` },
  'dcat:mediaType': 'application/ld+json',
  'rdfs:label': 'Change feed of the collection (IIIF Change Discovery 1.0, Activity Streams 2.0)',
});

/** The SPARQL endpoint as a DCAT data service over the four datasets; its description is its own URL. */
const sparqlService = (base: string): Record<string, unknown> => ({
  '@id': `${base}/sparql`,
  '@type': 'dcat:DataService',
  'dct:title': texts('SPARQL-eindpunt', 'SPARQL endpoint', 'Point d’accès SPARQL'),
  'dct:conformsTo': { '@id': 'https://www.w3.org/TR/sparql11-protocol/' },
  'dcat:endpointURL': { '@id': `${base}/sparql` },
  'dcat:endpointDescription': { '@id': `${base}/sparql` },
  'dcat:servesDataset': RECORD_DATASETS.map((d) => ({ '@id': `${base}/v2/id/${d.name}` })),
});

const dataset = (base: string, d: DatasetText): Record<string, unknown> => {
  const url = `${base}/v2/id/${d.name}`;
  const json: Record<string, unknown> = {
    '@type': 'dcat:Distribution',
    'dct:format': 'application/ld+json',
    'dcat:accessURL': { '@id': url },
    'dcat:mediaType': 'application/ld+json',
    'rdfs:label': d.distribution,
  };
  return {
    '@id': url,
    '@type': 'dcat:Dataset',
    'dct:title': d.title,
    'dct:description': d.description,
    'dct:type': { '@id': `${NS.crm}${d.crmClass}` },
    'dcat:distribution': d.dump ? [json, dumpDistribution(base, `${d.name}.nq.gz`, `N-Quads dump of all ${d.name} (gzip)`)] : [json],
    'dcat:endpointURL': { '@id': url },
    'dcat:endpointDescription': { '@id': `${base}${API_DOCS_PATH}` },
  };
};

/** The catalog document of a deployment whose BASE_URL is `base` (scheme and host, no trailing slash). */
export function buildCatalog(base: string): Record<string, unknown> {
  return {
    '@context': {
      dcat: NS.dcat,
      dct: NS.dcterms,
      foaf: NS.foaf,
      owl: NS.owl,
      rdfs: NS.rdfs,
      xsd: NS.xsd,
      hydra: NS.hydra,
      crm: NS.crm,
    },
    '@id': `${base}/v2/`,
    '@type': 'dcat:Catalog',
    'dct:title': texts(
      'Design Museum Gent — Collectie API v2',
      'Design Museum Gent — Collection API v2',
      'Design Museum Gent — API Collection v2',
    ),
    'dct:description': texts(
      'CIDOC-CRM conforme JSON-LD API die toegang biedt tot de collectie van Design Museum Gent, inclusief objecten, agenten, tentoonstellingen en thesaurustermen.',
      'CIDOC-CRM compliant JSON-LD API providing access to the collection of Design Museum Gent, including objects, agents, exhibitions and thesaurus concepts.',
      'API JSON-LD conforme au CIDOC-CRM donnant accès à la collection du Design Museum Gent, incluant objets, agents, expositions et termes du thésaurus.',
    ),
    'dct:publisher': {
      '@id': MUSEUM.iri,
      '@type': 'foaf:Organization',
      'foaf:name': MUSEUM.name,
      'foaf:homepage': { '@id': MUSEUM.homepage },
    },
    'dct:license': { '@id': 'https://creativecommons.org/licenses/by/4.0/' },
    'dct:language': (['NLD', 'ENG', 'FRA'] as const).map((code) => ({ '@id': `${AUTHORITY.language}${code}` })),
    'dct:conformsTo': { '@id': NS.crm, 'rdfs:label': 'CIDOC-CRM' },
    'foaf:homepage': { '@id': base },
    'dcat:dataset': DATASETS.map((d) => dataset(base, d)),
    // Beyond the reference catalog: the whole collection as one dump, and the SPARQL endpoint.
    'dcat:distribution': [dumpDistribution(base, 'collection.nq.gz', 'N-Quads dump of the whole collection (gzip)'), changeFeedDistribution(base)],
    'dcat:service': [sparqlService(base)],
  };
}

/** GET/HEAD /v2/ and /v2/dcat (mount under /v2): the catalog with ETag and Cache-Control. */
export function catalogRoutes(ctx: Pick<AppContext, 'config'>): Router {
  const doc = buildCatalog(ctx.config.baseUrl);
  const body = JSON.stringify(doc);
  const validators = { etag: weakEtag('catalog', body) };
  const send: RequestHandler = async (req, res) => {
    await sendAnswer(req, res, { validators, cacheControl: RECORD_CACHE_CONTROL, contentType: JSON_LD_CONTENT_TYPE, body });
  };
  const router = Router();
  // Two routes rather than one with an array path, so each has its own metrics label.
  router.get('/', send);
  router.get('/dcat', send);
  return router;
}
