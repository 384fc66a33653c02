/**
 * Builds the exhibitions (exhibitions.jsonl) and decides which objects each one showed; the same choice
 * fills the `exhibitions` list of those objects, so both sides agree. A few exhibitions also list an
 * object number that is not in the collection (`<year>-0000`, a serial never issued), which the harvest drops.
 */
import type { ExhibitionRecord } from '../harvest/schema.js';
import { MUSEUM } from '../vocab/namespaces.js';
import type { AgentPool } from './agents.js';
import type { ImagePool } from './images.js';
import type { ObjectPlan, ObjectsPlan } from './plan.js';
import { Rng } from './rng.js';
import { pad, pickLangs, slug, type Lang } from './text.js';
import { addDays, recordTimes } from './time.js';
import { assertValid } from './validate.js';
import { FAMILIES } from './vocabulary/families.js';
import { NAMES } from './vocabulary/names.js';
import { DESIGNER_SUBTITLES, EXHIBITION_THEMES, type Tri } from './vocabulary/phrases.js';
import { PLACES, PLACE_KEYS, placeRef } from './vocabulary/places.js';
import { EXHIBITION_IDS, idInBlock } from './stad-gent-ids.js';

interface FixedExhibition {
  pid: string;
  sameAs?: string;
  titles?: Tri;
  descriptions?: Tri;
  begin?: string;
  end?: string;
  /** Objects always shown. */
  objects?: readonly string[];
}

/** Exhibitions of reference/real-identifiers.json; only Kleureyck's title and sameAs are real. */
export const FIXED_EXHIBITIONS: readonly FixedExhibition[] = [
  {
    pid: 'TE_2020-001',
    sameAs: 'https://stad.gent/id/tentoonstelling/530003726',
    titles: { nl: 'Kleureyck. Van Eycks kleuren in design', fr: 'Kleureyck. Les couleurs de Van Eyck dans le design', en: "Kleureyck. Van Eyck's colours in design" },
    descriptions: {
      nl: 'Kleureyck toont hoe hedendaagse ontwerpers met kleur werken, vertrekkend van de kleuren die Jan van Eyck gebruikte in het Lam Gods.',
      fr: "Kleureyck montre comment les designers contemporains travaillent la couleur, à partir des couleurs utilisées par Jan van Eyck dans L'Agneau mystique.",
      en: 'Kleureyck shows how contemporary designers work with colour, starting from the colours Jan van Eyck used in the Ghent Altarpiece.',
    },
    begin: '2020-03-12',
    end: '2020-08-30',
    objects: ['1987-1105', '0935', '1482', '2017-0095_1-3'],
  },
  { pid: 'TE_1993-009' },
  { pid: 'TE_2003-010' },
];

/** Builds `count` exhibitions (at least the fixed ones) and records them on the objects they showed. */
export function buildExhibitions(seed: number, count: number, plan: ObjectsPlan, agents: AgentPool, images: ImagePool, iiifBase: string): ExhibitionRecord[] {
  const rng = new Rng(seed, 'exhibitions');
  const pids = FIXED_EXHIBITIONS.map((e) => e.pid);
  const taken = new Set(pids);
  const serials = new Map<number, number>();
  while (pids.length < Math.max(count, FIXED_EXHIBITIONS.length)) {
    const year = rng.chance(0.1) ? rng.int(1950, 1984) : rng.int(1985, 2025);
    for (;;) {
      const serial = serials.get(year) ?? 1;
      serials.set(year, serial + 1);
      const pid = `TE_${year}-${pad(serial, 3)}`;
      if (!taken.has(pid)) {
        taken.add(pid);
        pids.push(pid);
        break;
      }
    }
  }
  pids.sort();

  // Objects that can be shown, by acquisition year, so an exhibition mostly shows objects acquired by then.
  // Plain old numbers count as early acquisitions, TUP loans as recent ones.
  const since = (p: ObjectPlan): number => p.acqYear ?? (p.number.startsWith('TUP-') ? 1990 : 1903);
  const eligible = plan.objects.filter((p) => p.state.kind === 'current').sort((a, b) => since(a) - since(b) || a.index - b.index);
  const years = eligible.map(since);
  const fixedById = new Map(FIXED_EXHIBITIONS.map((e) => [e.pid, e]));

  const records: ExhibitionRecord[] = [];
  pids.forEach((pid, i) => {
    const own = new Rng(seed, `exhibition:${pid}`);
    const year = Number(pid.slice(3, 7));
    const fixed = fixedById.get(pid);
    const shown = new Set<string>(fixed?.objects ?? []);
    const limit = upperBound(years, year) || eligible.length;
    const want = Math.min(eligible.length, own.int(3, 30));
    for (let tries = 0; shown.size < want + (fixed?.objects?.length ?? 0) && tries < want * 4; tries++) {
      shown.add((eligible[own.int(0, limit - 1)] as ObjectPlan).number);
    }
    // A private exhibition is not named on objects: the object graph would publish its title.
    const isPublic = fixed !== undefined || own.chance(0.97);
    for (const number of shown) {
      const object = plan.byNumber.get(number);
      if (!object) throw new Error(`exhibition ${pid} names unknown object ${number}`);
      if (isPublic) object.exhibitions.push(pid);
    }
    const objects = [...shown].sort();
    if (own.chance(0.15) || pid === 'TE_1993-009') {
      const ghost = `${year}-0000`;
      if (!plan.byNumber.has(ghost)) objects.push(ghost);
    }
    records.push(exhibitionRecord(own, pid, year, i, objects, shown.size, isPublic, fixed, agents, images, iiifBase));
  });
  return records;
}

const birthsCache = new WeakMap<AgentPool, number[]>();
function personBirths(agents: AgentPool): number[] {
  let births = birthsCache.get(agents);
  if (!births) {
    births = agents.allPersons.map((a) => a.birth ?? 0);
    birthsCache.set(agents, births);
  }
  return births;
}

function upperBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function exhibitionRecord(
  rng: Rng,
  pid: string,
  year: number,
  index: number,
  objects: string[],
  shownCount: number,
  isPublic: boolean,
  fixed: FixedExhibition | undefined,
  agents: AgentPool,
  images: ImagePool,
  iiifBase: string,
): ExhibitionRecord {
  const { title, focus } = fixed?.titles ? { title: fixed.titles, focus: undefined } : inventTitle(rng, year, agents);
  const langRoll = rng.next();
  const titleLangs: Lang[] = fixed?.titles ? ['nl', 'fr', 'en'] : langRoll < 0.5 ? ['nl', 'fr', 'en'] : langRoll < 0.75 ? ['nl', 'en'] : langRoll < 0.95 ? ['nl'] : rng.chance(0.5) ? ['en'] : ['fr', 'en'];
  const titles = pickLangs(title, titleLangs);

  const begin = fixed?.begin ?? `${year}-${pad(rng.int(1, 11), 2)}-${pad(rng.int(1, 28), 2)}`;
  const end = fixed?.end ?? addDays(begin, rng.int(30, 240));

  const record: ExhibitionRecord = {
    pid,
    titles,
    begin,
    end,
    objects,
    descriptions: {},
    publications: [],
    media: [],
    views: [],
    ...recordTimes(rng),
    public: isPublic,
    sameAs: [],
  };
  if (titles.nl === undefined) record.sourceTitle = titles.en ?? titles.fr ?? title.en;
  const venueRoll = rng.next();
  if (fixed || venueRoll < 0.85) record.venue = { uri: MUSEUM.iri, label: MUSEUM.name };
  else if (venueRoll < 0.95) record.venue = placeRef(rng.pick(PLACE_KEYS));
  if (!fixed && rng.chance(0.4)) {
    const curator = rng.chance(0.6) ? rng.pick(agents.allPersons) : undefined;
    if (curator) record.curator = { label: curator.name, agent: curator.pid };
    else {
      const pool = NAMES.BEL;
      if (pool) record.curator = { label: `${rng.pick(rng.chance(0.5) ? pool.female : pool.male)} ${rng.pick(pool.surnames)}` };
    }
  }

  if (fixed?.descriptions || rng.chance(0.7)) {
    const text: Tri = fixed?.descriptions ?? {
      nl: `De tentoonstelling '${title.nl}' toont ${shownCount} objecten uit de collectie van Design Museum Gent.${focus ? ` ${focus.nl}` : ''}`,
      fr: `L'exposition « ${title.fr} » présente ${shownCount} objets de la collection du Design Museum Gent.${focus ? ` ${focus.fr}` : ''}`,
      en: `The exhibition '${title.en}' shows ${shownCount} objects from the collection of Design Museum Gent.${focus ? ` ${focus.en}` : ''}`,
    };
    record.descriptions = pickLangs(text, titleLangs.includes('nl') ? titleLangs : ['nl', ...titleLangs]);
  }
  const name = titles.nl ?? record.sourceTitle ?? pid;
  if (fixed || rng.chance(0.4)) {
    const n = rng.int(1, 2);
    for (let k = 0; k < n; k++) {
      const publication: ExhibitionRecord['publications'][number] = { title: k === 0 ? `${name} (tentoonstellingscatalogus)` : `Rondom ${name}` };
      if (rng.chance(0.9)) publication.year = year;
      if (rng.chance(0.5)) publication.url = `https://www.designmuseumgent.be/nl/publicaties/${slug(name)}${k === 0 ? '' : `-${k + 1}`}`;
      record.publications.push(publication);
    }
  }
  if (fixed || rng.chance(0.2)) {
    const n = rng.int(1, 2);
    for (let k = 0; k < n; k++) {
      const kind = k === 0 ? 'video' : 'audio';
      const item: ExhibitionRecord['media'][number] = { kind, title: kind === 'video' ? `Rondleiding door ${name}` : `Audiogids ${name}` };
      if (rng.chance(0.9)) item.year = year;
      if (rng.chance(0.7)) item.url = kind === 'video' ? `https://vimeo.com/${rng.int(100_000_000, 999_999_999)}` : `https://soundcloud.com/designmuseumgent/${slug(name)}`;
      record.media.push(item);
    }
  }
  if (fixed || rng.chance(0.6)) record.poster = { url: imageUrl(iiifBase, images.pickOk(rng, 'poster', 'paper').id) };
  if (fixed || rng.chance(0.5)) {
    const n = rng.int(1, 5);
    for (let k = 1; k <= n; k++) {
      const image = images.pickOk(rng, 'gallery', undefined);
      const view: ExhibitionRecord['views'][number] = { url: imageUrl(iiifBase, image.id), fileName: `${pid}_zaalzicht_${pad(k, 2)}.jpg` };
      if (rng.chance(0.6)) {
        view.width = image.width;
        view.height = image.height;
      }
      record.views.push(view);
    }
  }
  if (fixed?.sameAs) record.sameAs = [fixed.sameAs];
  else if (rng.chance(0.9)) record.sameAs = [`https://stad.gent/id/tentoonstelling/${idInBlock(EXHIBITION_IDS, index)}`];
  return assertValid('exhibitions', pid, orderExhibition(record));
}

/** Full-size image URL on the demo IIIF server. */
function imageUrl(iiifBase: string, id: string): string {
  return `${iiifBase}/iiif/3/${id}/full/max/0/default.jpg`;
}

function orderExhibition(r: ExhibitionRecord): ExhibitionRecord {
  const out = { pid: r.pid, titles: r.titles } as ExhibitionRecord;
  if (r.sourceTitle !== undefined) out.sourceTitle = r.sourceTitle;
  out.begin = r.begin;
  out.end = r.end;
  if (r.venue) out.venue = r.venue;
  if (r.curator) out.curator = r.curator;
  out.objects = r.objects;
  out.descriptions = r.descriptions;
  out.publications = r.publications;
  out.media = r.media;
  if (r.poster) out.poster = r.poster;
  out.views = r.views;
  out.harvestedAt = r.harvestedAt;
  out.modified = r.modified;
  out.public = r.public;
  out.sameAs = r.sameAs;
  return out;
}

function inventTitle(rng: Rng, year: number, agents: AgentPool): { title: Tri; focus?: Tri } {
  const roll = rng.next();
  // Only designers who were at least 25 by then (allPersons is sorted by birth year).
  const adults = agents.allPersons.slice(0, upperBound(personBirths(agents), year - 25));
  if (roll < 0.3 && adults.length > 0) {
    const designer = rng.pick(adults);
    const sub = rng.pick(DESIGNER_SUBTITLES);
    return {
      title: { nl: `${designer.name}. ${sub.nl}`, fr: `${designer.name}. ${sub.fr}`, en: `${designer.name}. ${sub.en}` },
      focus: { nl: `Ze belicht het werk van ${designer.name}.`, fr: `Elle met en lumière l'œuvre de ${designer.name}.`, en: `It highlights the work of ${designer.name}.` },
    };
  }
  if (roll < 0.6) {
    const family = rng.pick(FAMILIES);
    const p = family.plural;
    const focus = { nl: `De focus ligt op ${p.nl.toLowerCase()}.`, fr: `L'accent est mis sur : ${p.fr.toLowerCase()}.`, en: `The focus is on ${p.en.toLowerCase()}.` };
    if (rng.chance(0.5)) return { title: { nl: `${p.nl} uit de collectie`, fr: `${p.fr} de la collection`, en: `${p.en} from the collection` }, focus };
    const from = Math.max(1600, year - rng.int(40, 120));
    const to = Math.min(year, from + rng.int(20, 60));
    return { title: { nl: `${p.nl} ${from}-${to}`, fr: `${p.fr} ${from}-${to}`, en: `${p.en} ${from}-${to}` }, focus };
  }
  if (roll < 0.75) {
    const place = PLACES[rng.pick(PLACE_KEYS)];
    const material = rng.pick<Tri>([
      { nl: 'Glas', fr: 'Verre', en: 'Glass' },
      { nl: 'Keramiek', fr: 'Céramique', en: 'Ceramics' },
      { nl: 'Zilver', fr: 'Argenterie', en: 'Silver' },
      { nl: 'Design', fr: 'Design', en: 'Design' },
    ]);
    return { title: { nl: `${material.nl} uit ${place.nl}`, fr: `${material.fr} de ${place.fr}`, en: `${material.en} from ${place.en}` } };
  }
  if (roll < 0.8) return { title: { nl: `Nieuwe aanwinsten ${year}`, fr: `Nouvelles acquisitions ${year}`, en: `New acquisitions ${year}` } };
  return { title: rng.pick(EXHIBITION_THEMES) };
}
