/**
 * Titles and descriptions of generated objects in Dutch, French and English, composed from the object's own
 * type, material, decoration, makers, date and acquisition, so the text agrees with the record.
 */
import type { SetInfo } from './plan.js';
import type { Rng } from './rng.js';
import { aOrAn, cap, joinList, tri } from './text.js';
import type { Family } from './vocabulary/families.js';
import { ACQUISITION_METHODS, ANIMALS, DECORS, MODEL_NAMES, POSTER_EVENTS, STYLE_FEATURES, styleOf, type AcquisitionMethod, type Tri } from './vocabulary/phrases.js';

export interface TextInput {
  family: Family;
  type: Tri;
  material?: Tri;
  set?: SetInfo;
  designer?: string;
  maker?: string;
  place?: Tri;
  dateLabel?: string;
  year?: number;
  techniques: readonly Tri[];
  acquisition?: { method: AcquisitionMethod; year?: number };
}

const SERVICE_FAMILIES = new Set(['bowl', 'jug', 'teapot', 'cup', 'plate', 'glass', 'cutlery', 'cruet']);

/** How a set is called: as a title (koepelrecord) and after "uit" / "du" / "from the" (members). */
function setNames(family: Family, set: SetInfo): { title: Tri; from: Tri } {
  const n = set.name;
  if (family.key === 'glass') return { title: { nl: `Glasservies '${n}'`, fr: `Service de verres « ${n} »`, en: `Glass service '${n}'` }, from: { nl: `uit het glasservies '${n}'`, fr: `du service de verres « ${n} »`, en: `from the '${n}' glass service` } };
  if (family.key === 'cutlery') return { title: { nl: `Bestekset '${n}'`, fr: `Ménagère « ${n} »`, en: `Cutlery set '${n}'` }, from: { nl: `uit de bestekset '${n}'`, fr: `de la ménagère « ${n} »`, en: `from the '${n}' cutlery set` } };
  if (SERVICE_FAMILIES.has(family.key)) return { title: { nl: `Servies '${n}'`, fr: `Service « ${n} »`, en: `Service '${n}'` }, from: { nl: `uit het servies '${n}'`, fr: `du service « ${n} »`, en: `from the '${n}' service` } };
  if (family.key === 'tile') return { title: { nl: `Tegeltableau '${n}'`, fr: `Tableau de carreaux « ${n} »`, en: `Tile panel '${n}'` }, from: { nl: `uit het tegeltableau '${n}'`, fr: `du tableau de carreaux « ${n} »`, en: `from the '${n}' tile panel` } };
  const p = family.plural;
  return {
    title: { nl: `Set van ${set.size} ${p.nl.toLowerCase()} '${n}'`, fr: `Ensemble de ${set.size} ${p.fr.toLowerCase()} « ${n} »`, en: `Set of ${set.size} '${n}' ${p.en.toLowerCase()}` },
    from: { nl: `uit de set '${n}'`, fr: `de l'ensemble « ${n} »`, en: `from the '${n}' set` },
  };
}

/** A title in the three languages. */
export function inventTitle(rng: Rng, input: TextInput): Tri {
  const T = tri((l) => cap(input.type[l]));
  const m = input.material;
  if (input.set) {
    const names = setNames(input.family, input.set);
    if (input.set.position === 0) return names.title;
    return tri((l) => `${T[l]} ${names.from[l]}`);
  }
  const plain = (): Tri => {
    const r = rng.next();
    if (input.family.decorated && r < 0.45) {
      const d = rng.pick(DECORS);
      return { nl: `${T.nl} met ${d.nl}`, fr: `${T.fr} ${d.fr}`, en: `${T.en} with ${d.en}` };
    }
    if (m && r < 0.75) return { nl: `${T.nl} in ${m.nl}`, fr: `${T.fr} en ${m.fr}`, en: `${T.en} in ${m.en}` };
    return T;
  };
  const model = rng.pick(MODEL_NAMES);
  switch (input.family.title) {
    case 'model':
      return rng.chance(0.5) ? { nl: `${T.nl} '${model}'`, fr: `${T.fr} « ${model} »`, en: `${T.en} '${model}'` } : plain();
    case 'service':
      return rng.chance(0.4) ? { nl: `${T.nl} uit het servies '${model}'`, fr: `${T.fr} du service « ${model} »`, en: `${T.en} from the '${model}' service` } : plain();
    case 'figurine': {
      if (input.type.nl === 'buste') return plain();
      const a = rng.pick(ANIMALS);
      const mat = m ?? { nl: 'porselein', fr: 'porcelaine', en: 'porcelain' };
      return { nl: `Beeldje van een ${a.nl} in ${mat.nl}`, fr: `Figurine en forme de ${a.fr} en ${mat.fr}`, en: `Figurine of ${aOrAn(a.en)} in ${mat.en}` };
    }
    case 'poster': {
      const e = rng.pick(POSTER_EVENTS);
      return { nl: `${T.nl} voor ${e.nl}`, fr: `${T.fr} pour ${e.fr}`, en: `${T.en} for ${e.en}` };
    }
    default:
      return plain();
  }
}

const STYLE_ARTICLE_NL = (style: string): string => (/(isme|design)$/.test(style) ? 'het' : 'de');
const STYLE_ARTICLE_FR = (style: string): string => (/^[aeiouhéAEIOUH]/.test(style) ? "de l'" : 'du ');

/** A description of a few sentences in the three languages. */
export function inventDescription(rng: Rng, input: TextInput): Tri {
  const sentences: Tri[] = [];
  const T = tri((l) => cap(input.type[l]));
  const m = input.material;
  const subject = input.set?.position === 0 ? setNames(input.family, input.set).title : T;
  sentences.push(m ? { nl: `${subject.nl} in ${m.nl}.`, fr: `${subject.fr} en ${m.fr}.`, en: `${subject.en} in ${m.en}.` } : { nl: `${subject.nl}.`, fr: `${subject.fr}.`, en: `${subject.en}.` });

  const { designer, maker, place, dateLabel, year } = input;
  const when = dateLabel ? ` (${dateLabel})` : '';
  if (designer && maker) {
    sentences.push({
      nl: `Ontworpen door ${designer} en uitgevoerd door ${maker}${place ? ` in ${place.nl}` : ''}${when}.`,
      fr: `Conception : ${designer} ; réalisation : ${maker}${place ? ` à ${place.fr}` : ''}${when}.`,
      en: `Designed by ${designer} and made by ${maker}${place ? ` in ${place.en}` : ''}${when}.`,
    });
  } else if (designer) {
    sentences.push({ nl: `Een ontwerp van ${designer}${when}.`, fr: `Une création de ${designer}${when}.`, en: `A design by ${designer}${when}.` });
  } else if (maker) {
    sentences.push({
      nl: `Vervaardigd door ${maker}${place ? ` in ${place.nl}` : ''}${when}.`,
      fr: `Fabrication : ${maker}${place ? ` à ${place.fr}` : ''}${when}.`,
      en: `Made by ${maker}${place ? ` in ${place.en}` : ''}${when}.`,
    });
  }
  if (input.techniques.length > 0 && rng.chance(0.6)) {
    const list = tri((l) => joinList(input.techniques.map((t) => t[l]), l));
    sentences.push({ nl: `Bij de vervaardiging werd gebruikgemaakt van ${list.nl}.`, fr: `Techniques employées : ${list.fr}.`, en: `Techniques used: ${list.en}.` });
  }
  if (year !== undefined && rng.chance(0.6)) {
    const style = styleOf(year);
    const feature = rng.pick(STYLE_FEATURES);
    sentences.push({
      nl: `Het stuk is typerend voor ${STYLE_ARTICLE_NL(style.nl)} ${style.nl}, gekenmerkt door ${feature.nl}.`,
      fr: `La pièce est caractéristique ${STYLE_ARTICLE_FR(style.fr)}${style.fr}, marquée par ${feature.fr}.`,
      en: `The piece is characteristic of ${style.en}, marked by ${feature.en}.`,
    });
  }
  if (input.set) {
    sentences.push(
      input.set.position === 0
        ? { nl: `De set bestaat uit ${input.set.size} objecten.`, fr: `L'ensemble comprend ${input.set.size} objets.`, en: `The set consists of ${input.set.size} objects.` }
        : { nl: `Dit stuk maakt deel uit van een set van ${input.set.size} objecten.`, fr: `Cette pièce fait partie d'un ensemble de ${input.set.size} objets.`, en: `This piece is part of a set of ${input.set.size} objects.` },
    );
  }
  if (input.acquisition && rng.chance(0.5)) sentences.push(acquisitionSentence(input.acquisition.method, input.acquisition.year));
  return tri((l) => sentences.map((s) => s[l]).join(' '));
}

function acquisitionSentence(method: AcquisitionMethod, year: number | undefined): Tri {
  const inYear = (l: 'nl' | 'fr' | 'en'): string => (year === undefined ? '' : l === 'fr' ? ` en ${year}` : ` in ${year}`);
  switch (method) {
    case 'aankoop':
      return { nl: `Het museum kocht het stuk aan${inYear('nl')}.`, fr: `Le musée a acheté la pièce${inYear('fr')}.`, en: `The museum purchased the piece${inYear('en')}.` };
    case 'schenking':
      return { nl: `Het stuk werd${inYear('nl')} aan het museum geschonken.`, fr: `La pièce a été offerte au musée${inYear('fr')}.`, en: `The piece was donated to the museum${inYear('en')}.` };
    case 'legaat':
      return { nl: `Het stuk kwam${inYear('nl')} via een legaat in de collectie.`, fr: `La pièce est entrée dans la collection par legs${inYear('fr')}.`, en: `The piece entered the collection as a bequest${inYear('en')}.` };
    case 'bruikleen':
      return year === undefined
        ? { nl: 'Het stuk is in bruikleen.', fr: 'La pièce est en prêt.', en: 'The piece is on loan.' }
        : { nl: `Het stuk is sinds ${year} in bruikleen.`, fr: `La pièce est en prêt depuis ${year}.`, en: `The piece has been on loan since ${year}.` };
    case 'oningeschreven gevonden':
      return { nl: `Het stuk werd${inYear('nl')} oningeschreven in de collectie teruggevonden.`, fr: `La pièce a été retrouvée non inventoriée dans la collection${inYear('fr')}.`, en: `The piece was found uninventoried in the collection${inYear('en')}.` };
    default:
      return { nl: 'Hoe het stuk in de collectie kwam, is niet bekend.', fr: 'On ignore comment la pièce est entrée dans la collection.', en: 'How the piece entered the collection is not known.' };
  }
}

/** The method phrase table is shared with the acquisition builder. */
export const ACQUISITION_WEIGHTS: readonly (readonly [AcquisitionMethod, number])[] = ACQUISITION_METHODS.map((a) => [a.method, a.weight] as const);
