/**
 * The words of the pages for people in the museum's three languages (docs/html.md, "Languages"): the page's
 * language comes from `Accept-Language` (Dutch, English or French; Dutch, the museum's, by default), and every
 * word of the page's own (headings, buttons, labels, property names, sort names) is taken from here. The record's
 * data keeps the languages it has.
 */
import type { Request, Response } from 'express';
import type { TitleLanguage } from '../collection-index/languages.js';
import type { LocalText } from '../engine/page-declarations.js';

export const PAGE_LANGUAGES = [
  { tag: 'nl', code: 'NLD', name: 'Nederlands' },
  { tag: 'en', code: 'ENG', name: 'English' },
  { tag: 'fr', code: 'FRA', name: 'Français' },
] as const satisfies readonly { tag: TitleLanguage; code: string; name: string }[];
/** The pages' languages are the collection's. */
export type PageLanguage = TitleLanguage;
export type { LocalText };

/** The page's language from Accept-Language (Dutch, the museum's, by default); says so in Vary. */
export function pageLanguage(req: Request, res: Response): PageLanguage {
  res.vary('Accept-Language');
  const choice = req.acceptsLanguages(...PAGE_LANGUAGES.map((l) => l.tag));
  return PAGE_LANGUAGES.find((l) => l.tag === choice)?.tag ?? 'nl';
}

const text = (nl: string, en: string, fr: string): LocalText => ({ nl, en, fr });

/** The pages' own words. */
export const MESSAGES = {
  tagline: text('collectie als linked data', 'collection as linked data', 'collection en données liées'),
  searchObjects: text('Zoek in de objecten', 'Search the objects', 'Rechercher dans les objets'),
  searchPlaceholder: text('stoel, vaas, Van de Velde…', 'chair, vase, Van de Velde…', 'chaise, vase, Van de Velde…'),
  search: text('Zoeken', 'Search', 'Rechercher'),
  searchIn: text('Zoek in', 'Search', 'Rechercher dans'),
  sortBy: text('Sorteren op', 'Sort by', 'Trier par'),
  order: text('Volgorde', 'Order', 'Ordre'),
  ascending: text('oplopend', 'ascending', 'croissant'),
  descending: text('aflopend', 'descending', 'décroissant'),
  relevance: text('relevantie', 'relevance', 'pertinence'),
  filteredBy: text('Gefilterd op', 'Filtered by', 'Filtré par'),
  clearFilters: text('filters wissen', 'clear filters', 'effacer les filtres'),
  result: text('resultaat', 'result', 'résultat'),
  results: text('resultaten', 'results', 'résultats'),
  narrow: text('Verfijn de resultaten', 'Narrow the results', 'Affiner les résultats'),
  resultsList: text('Resultaten', 'Results', 'Résultats'),
  pages: text('Pagina’s', 'Pages', 'Pages'),
  first: text('Eerste', 'First', 'Première'),
  previous: text('Vorige', 'Previous', 'Précédente'),
  next: text('Volgende', 'Next', 'Suivante'),
  last: text('Laatste', 'Last', 'Dernière'),
  forPrograms: text('Deze pagina voor programma’s', 'This page for programs', 'Cette page pour les programmes'),
  apiDocs: text('API-documentatie', 'API documentation', 'Documentation de l’API'),
  catalog: text('DCAT-catalogus', 'DCAT catalog', 'Catalogue DCAT'),
  licence: text('Datalicentie CC BY 4.0', 'Data licence CC BY 4.0', 'Licence des données CC BY 4.0'),
  keyFacts: text('Kerngegevens', 'Key facts', 'L’essentiel'),
  everything: text('Alles wat het record zegt', 'Everything the record says', 'Tout ce que dit la notice'),
  related: text('Verwant', 'Related', 'Apparenté'),
  same: text('zelfde', 'same', 'même'),
  allRelated: text('Alle verwante objecten (JSON-LD)', 'All related objects (JSON-LD)', 'Tous les objets apparentés (JSON-LD)'),
  images: text('Afbeeldingen', 'Images', 'Images'),
  deepZoom: text('Inzoomen op de afbeeldingen', 'Deep zoom of the images', 'Zoom sur les images'),
  portraitOn: text('Portret (op', 'Portrait (on', 'Portrait (sur'),
  rights: text('rechten', 'rights', 'droits'),
  shownAbove: text('hierboven getoond', 'shown above', 'montrée plus haut'),
  image: text('afbeelding', 'image', 'image'),
  imageOn: text('afbeelding op', 'image on', 'image sur'),
  showAll: text('Toon alle', 'Show all', 'Voir les'),
  value: text('Waarde', 'Value', 'Valeur'),
  count: text('Aantal', 'Count', 'Nombre'),
  details: text('Details', 'Details', 'Détails'),
  goTo: text('Ga naar', 'Go to', 'Aller à'),
  tryThe: text('Probeer de', 'Try the', 'Essayez les'),
  or: text('of', 'or', 'ou'),
  orThe: text('of de', 'or the', 'ou la'),
  startPage: text('startpagina', 'start page', 'page d’accueil'),
  browse: text('Bladeren', 'Browse', 'Parcourir'),
  indexes: text('Indexen', 'Indexes', 'Index'),
  forDevelopers: text('Voor ontwikkelaars', 'For developers', 'Pour les développeurs'),
} as const satisfies Record<string, LocalText>;

export type MessageKey = keyof typeof MESSAGES;

/** A word of the pages in `lang`. */
export const say = (key: MessageKey, lang: PageLanguage): string => MESSAGES[key][lang];

/** What a collection holds, by its name; another kind's collection is named as it is. */
const COLLECTION_NAMES: Readonly<Record<string, LocalText>> = {
  objects: text('Objecten', 'Objects', 'Objets'),
  agents: text('Personen en organisaties', 'Agents', 'Personnes et organisations'),
  exhibitions: text('Tentoonstellingen', 'Exhibitions', 'Expositions'),
  concepts: text('Concepten', 'Concepts', 'Concepts'),
};
/** What a record is, by its kind. */
const KIND_NAMES: Readonly<Record<string, LocalText>> = {
  object: text('Object', 'Object', 'Objet'),
  agent: text('Persoon of organisatie', 'Agent', 'Personne ou organisation'),
  exhibition: text('Tentoonstelling', 'Exhibition', 'Exposition'),
  concept: text('Concept', 'Concept', 'Concept'),
};

const capitalised = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** `objects` → Objecten / Objects / Objets. */
export const collectionName = (collection: string, lang: PageLanguage): string => COLLECTION_NAMES[collection]?.[lang] ?? capitalised(collection);
/** `object` → Object / Object / Objet. */
export const kindName = (kind: string, lang: PageLanguage): string => KIND_NAMES[kind]?.[lang] ?? capitalised(kind);

/** The sort keys of the collections, for people; another key is shown as it is. */
const SORT_NAMES: Readonly<Record<string, LocalText>> = {
  objectNumber: text('objectnummer', 'object number', 'numéro d’inventaire'),
  modified: text('laatst gewijzigd', 'last modified', 'dernière modification'),
  titleNL: text('titel (Nederlands)', 'title (Dutch)', 'titre (néerlandais)'),
  titleFR: text('titel (Frans)', 'title (French)', 'titre (français)'),
  titleEN: text('titel (Engels)', 'title (English)', 'titre (anglais)'),
  dateBegin: text('datering (begin)', 'date (from)', 'date (début)'),
  dateEnd: text('datering (einde)', 'date (to)', 'date (fin)'),
  name: text('naam', 'name', 'nom'),
  label: text('naam', 'label', 'libellé'),
  pid: text('nummer', 'identifier', 'identifiant'),
};
export const sortName = (key: string, lang: PageLanguage): string => SORT_NAMES[key]?.[lang] ?? key;

/** Readable names of the properties the records use (CIDOC-CRM, SKOS, OWL, PROV, the service's own keys). */
export const PROPERTY_NAMES: Readonly<Record<string, LocalText>> = {
  'rdfs:label': text('Naam', 'Label', 'Libellé'),
  'owl:sameAs': text('Zelfde als', 'Same as', 'Identique à'),
  'prov:generatedAtTime': text('Geoogst', 'Harvested', 'Moissonné'),
  'crm:P1_is_identified_by': text('Geïdentificeerd door', 'Identified by', 'Identifié par'),
  'crm:P2_has_type': text('Type', 'Type', 'Type'),
  'crm:P3_has_note': text('Noot', 'Note', 'Note'),
  'crm:P4_has_time-span': text('Datering', 'Date', 'Date'),
  'crm:P7_took_place_at': text('Plaats', 'Place', 'Lieu'),
  'crm:P14_carried_out_by': text('Door', 'By', 'Par'),
  'crm:P16_used_specific_object': text('Getoonde objecten', 'Objects shown', 'Objets présentés'),
  'crm:P22_transferred_title_to': text('Verworven door', 'Acquired by', 'Acquis par'),
  'crm:P24i_changed_ownership_through': text('Verwerving', 'Acquisition', 'Acquisition'),
  'crm:P32_used_general_technique': text('Technieken', 'Techniques', 'Techniques'),
  'crm:P43_has_dimension': text('Afmetingen', 'Dimensions', 'Dimensions'),
  'crm:P45_consists_of': text('Materialen', 'Materials', 'Matériaux'),
  'crm:P46_has_component': text('Onderdelen', 'Parts', 'Parties'),
  'crm:P46i_forms_part_of': text('Deel van set', 'Part of set', 'Fait partie de l’ensemble'),
  'crm:P50_has_current_keeper': text('Beheerder', 'Keeper', 'Détenteur'),
  'crm:P55_has_current_location': text('Te zien in', 'On display at', 'Exposé à'),
  'crm:P65_shows_visual_item': text('Toont', 'Shows', 'Montre'),
  'crm:P67i_is_referred_to_by': text('Beschrijvingen', 'Descriptions', 'Descriptions'),
  'crm:P72_has_language': text('Taal', 'Language', 'Langue'),
  'crm:P82a_begin_of_the_begin': text('Van', 'From', 'De'),
  'crm:P82b_end_of_the_end': text('Tot', 'To', 'À'),
  'crm:P90_has_value': text('Waarde', 'Value', 'Valeur'),
  'crm:P91_has_unit': text('Eenheid', 'Unit', 'Unité'),
  'crm:P94i_was_created_by': text('Ontwerp', 'Design', 'Conception'),
  'crm:P98i_was_born': text('Geboren / opgericht', 'Born / founded', 'Naissance / fondation'),
  'crm:P100i_died_in': text('Overleden / opgeheven', 'Died / dissolved', 'Décès / dissolution'),
  'crm:P102_has_title': text('Titel', 'Title', 'Titre'),
  'crm:P104_is_subject_to': text('Rechten', 'Rights', 'Droits'),
  'crm:P106_is_composed_of': text('Setonderdelen', 'Set members', 'Éléments de l’ensemble'),
  'crm:P106i_forms_part_of': text('Collecties', 'Collections', 'Collections'),
  'crm:P107_has_current_or_former_member': text('Leden', 'Members', 'Membres'),
  'crm:P107i_is_current_or_former_member_of': text('Lid van', 'Member of', 'Membre de'),
  'crm:P108i_was_produced_by': text('Productie', 'Production', 'Production'),
  'crm:P11i_participated_in': text('Nam deel aan', 'Took part in', 'A participé à'),
  'crm:P12i_was_present_at': text('Tentoonstellingen', 'Exhibitions', 'Expositions'),
  'crm:P129i_is_subject_of': text('Media en bronnen', 'Media and sources', 'Médias et sources'),
  'crm:P138i_has_representation': text('Afbeeldingen', 'Images', 'Images'),
  'crm:P15i_was_motivation_of': text('Inspireerde', 'Inspired', 'A inspiré'),
  'crm:P152_has_parent': text('Ouder', 'Parent', 'Parent'),
  'crm:P152i_is_parent_of': text('Ouder van', 'Parent of', 'Parent de'),
  'person:citizenship': text('Nationaliteit', 'Nationality', 'Nationalité'),
  'skos:prefLabel': text('Voorkeurslabels', 'Preferred labels', 'Libellés préférés'),
  'skos:altLabel': text('Andere labels', 'Other labels', 'Autres libellés'),
  'skos:scopeNote': text('Toelichting', 'Scope notes', 'Notes d’application'),
  'skos:broader': text('Bredere termen', 'Broader terms', 'Termes génériques'),
  'skos:narrower': text('Engere termen', 'Narrower terms', 'Termes spécifiques'),
  thumbnail: text('Miniatuur', 'Thumbnail', 'Vignette'),
  image: text('Afbeelding', 'Image', 'Image'),
};
