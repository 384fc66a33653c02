/**
 * `/`, the root of the service. A browser (an Accept header that prefers text/html) gets a small page for
 * people: what the service is and where to go. Every other client (JSON-LD clients, curl's `*∕*`, no Accept
 * at all) keeps the 302 to the DCAT catalog at /v2/, the entry point of the API. Both say `Vary: Accept`.
 * The page is in the language `Accept-Language` asks for (Dutch, English or French) and has the frame of every
 * page for people (src/pages/layout.ts): no script, no external asset.
 */
import { Router } from 'express';
import type { RecordTable } from '../collection-index/record-table.js';
import { indexDatasets, type LandingLink } from '../engine/catalog-dataset.js';
import type { ResourceKind } from '../engine/kind.js';
import { sendAnswer } from '../http/answer.js';
import { weakEtag } from '../http/caching.js';
import { negotiate, varyOnAccept } from '../http/negotiation.js';
import { html, Html } from '../pages/html.js';
import { page } from '../pages/layout.js';
import { PAGE_LANGUAGES, pageLanguage, say, type LocalText, type PageLanguage } from '../pages/messages.js';

/** Offers in the server's order of preference: a tie, `*∕*` or no Accept goes to the catalog. */
const OFFERS = ['application/ld+json', 'application/json', 'text/html'] as const;
export const CATALOG_PATH = '/v2/';

interface Link extends LandingLink {
  href: string;
}

const text = (nl: string, en: string, fr: string): LocalText => ({ nl, en, fr });

const API: readonly Link[] = [
  { href: '/docs', text: text('API-documentatie', 'API documentation', 'Documentation de l’API'), note: text('elk endpoint, elke parameter en elk antwoord, uit de OpenAPI-beschrijving', 'every endpoint, parameter and response, rendered from the OpenAPI description', 'chaque point d’accès, paramètre et réponse, d’après la description OpenAPI') },
  { href: '/openapi.json', text: text('OpenAPI 3.1-beschrijving', 'OpenAPI 3.1 description', 'Description OpenAPI 3.1'), note: text('het machineleesbare contract van de API', 'the machine-readable contract of the API', 'le contrat de l’API, lisible par les machines') },
  { href: '/v2/', text: text('DCAT-catalogus', 'DCAT catalog', 'Catalogue DCAT'), note: text('het startpunt van de REST API (JSON-LD): datasets, distributies en endpoints', 'the entry point of the REST API (JSON-LD): datasets, distributions and endpoints', 'le point d’entrée de l’API REST (JSON-LD) : jeux de données, distributions et points d’accès') },
  { href: '/sparql', text: text('SPARQL-editor', 'SPARQL editor', 'Éditeur SPARQL'), note: text('bevraag de publieke records met SPARQL 1.1, met voorbeelden', 'query the public records with SPARQL 1.1, with example queries', 'interrogez les notices publiques en SPARQL 1.1, avec des exemples') },
  { href: '/v2/dumps/collection.nq.gz', text: text('N-Quads-dump', 'N-Quads dump', 'Export N-Quads'), note: text('de hele publieke collectie in één gzip-bestand, één benoemde graaf per record', 'the whole public collection in one gzip file, one named graph per record', 'toute la collection publique en un fichier gzip, un graphe nommé par notice') },
];

const INTRO = text(
  'Een alleen-lezen dienst die de collectie van een designmuseum publiceert — objecten, de ontwerpers en producenten erachter, tentoonstellingen en de thesaurus van het museum — als linked open data: JSON-LD in het CIDOC-CRM-vocabularium (SKOS voor thesaurustermen, Hydra voor paginering), een SPARQL 1.1-endpoint en N-Quads-dumps. Elk adres van de API is ook een pagina voor mensen.',
  'A read-only service that publishes the collection of a design museum — objects, the designers and producers behind them, exhibitions and the museum\'s thesaurus — as linked open data: JSON-LD in the CIDOC-CRM vocabulary (SKOS for thesaurus terms, Hydra for pagination), a SPARQL 1.1 endpoint and N-Quads dumps. Every address of the API is also a page for people.',
  'Un service en lecture seule qui publie la collection d’un musée du design — objets, designers et fabricants, expositions et thésaurus du musée — en données ouvertes liées : JSON-LD dans le vocabulaire CIDOC-CRM (SKOS pour les termes du thésaurus, Hydra pour la pagination), un point d’accès SPARQL 1.1 et des exports N-Quads. Chaque adresse de l’API est aussi une page pour les personnes.',
);
/** The service's own markup (code elements), in each language. */
const PROGRAMS = text(
  'Stuur <code>Accept: application/ld+json</code>: dit adres verwijst dan door naar de catalogus op <code>/v2/</code>. Records bestaan ook als Turtle, N-Triples, N-Quads en RDF/XML. De REST API heeft een limiet per client; gebruik de dumps om alles te nemen.',
  'Send <code>Accept: application/ld+json</code>: this address then redirects to the catalog at <code>/v2/</code>. Records are also served as Turtle, N-Triples, N-Quads and RDF/XML. The REST API is rate-limited per client; to take everything, use the dumps.',
  'Envoyez <code>Accept: application/ld+json</code> : cette adresse redirige alors vers le catalogue à <code>/v2/</code>. Les notices existent aussi en Turtle, N-Triples, N-Quads et RDF/XML. L’API REST est limitée par client ; pour tout prendre, utilisez les exports.',
);

const list = (links: readonly Link[], lang: PageLanguage): Html => html`<ul class="links">${links.map((link) => html`<li><a href="${link.href}">${link.text[lang]}</a> <span>— ${link.note[lang]}</span></li>`)}</ul>`;

/** The landing page in `lang`: its collections and indexes are those of `kinds`, with each kind's own texts. */
export function landingPage(kinds: readonly ResourceKind<RecordTable>[], lang: PageLanguage): string {
  const collections = kinds.map((kind): Link => ({ href: `/v2/id/${kind.collection}`, ...kind.api.landing }));
  const indexes = indexDatasets(kinds).flatMap((d): Link[] => (d.landing === undefined ? [] : [{ href: `/v2/id/${d.name}`, ...d.landing }]));
  const main = html`<h1>Design Museum Gent — ${say('tagline', lang)}</h1>
<p>${INTRO[lang]}</p>
<h2>${say('browse', lang)}</h2>
${list(collections, lang)}
<h2>${say('indexes', lang)}</h2>
${list(indexes, lang)}
<h2>${say('forDevelopers', lang)}</h2>
${list(API, lang)}
<p>${new Html(PROGRAMS[lang])}</p>`;
  return page({ title: say('tagline', lang), lang, main, alternates: [{ href: CATALOG_PATH, type: 'application/ld+json', title: say('catalog', lang) }] });
}

/** GET / (mount at the root). */
export function landingRoutes(kinds: readonly ResourceKind<RecordTable>[]): Router {
  // One page per language, made once.
  const pages = new Map(PAGE_LANGUAGES.map(({ tag }) => {
    const body = landingPage(kinds, tag);
    return [tag, { body, validators: { etag: weakEtag('landing', body) } }];
  }));
  const router = Router();
  router.get('/', async (req, res) => {
    varyOnAccept(res);
    if (negotiate(req, OFFERS) !== 'text/html') {
      res.redirect(302, CATALOG_PATH);
      return;
    }
    const { body, validators } = pages.get(pageLanguage(req, res))!;
    await sendAnswer(req, res, { validators, cacheControl: 'public, max-age=3600', contentType: 'text/html; charset=utf-8', body });
  });
  return router;
}
