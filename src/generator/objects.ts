/**
 * Builds one object record (objects.jsonl line) from its plan entry. Content is drawn from a stream named
 * after the object number, so an object looks the same whatever else the collection holds. Every record is
 * checked against the schema and for dangling references before it is returned.
 */
import type { DateSpan, ObjectRecord, Production, Creation, Dimension } from '../harvest/schema.js';
import type { AgentInfo, AgentPool } from './agents.js';
import type { Dating, RealObject } from './anchors.js';
import type { ConceptInfo } from './concepts.js';
import { DATING_WEIGHTS, makeSpan, sampleYear } from './object-dates.js';
import { ACQUISITION_WEIGHTS, inventDescription, inventTitle, type TextInput } from './object-texts.js';
import type { ObjectContext } from './object-context.js';
import { imageRecord, objectImages } from './object-images.js';
import type { ObjectPlan } from './plan.js';
import { Rng } from './rng.js';
import { pickLangs, slug, type Lang } from './text.js';
import { recordTimes } from './time.js';
import { assertReference, assertValid } from './validate.js';
import { INDUSTRY_BY_GROUP, MATERIAL_SINCE, TECHNIQUE_SINCE, TECHNIQUES_BY_GROUP, type Industry } from './vocabulary/families.js';
import type { AcquisitionMethod } from './vocabulary/phrases.js';
import { PLACES, placeRef, placesOf, type PlaceKey } from './vocabulary/places.js';

const STAD_GENT_OBJECT_START = 530_500_000;
const LAST_YEAR = 2024;
const MEMPHIS_DESIGNERS = ['sottsass', 'deLucchi', 'duPasquier', 'bedin', 'branzi'];
const MEMPHIS_FAMILIES = new Set(['chair', 'table', 'cabinet', 'lamp', 'vase', 'bowl', 'clock']);
const ACQUISITION_PLACES: readonly PlaceKey[] = ['gent', 'brussel', 'antwerpen', 'parijs', 'londen', 'amsterdam', 'milaan'];
const STAD_GENT = { uri: 'http://www.wikidata.org/entity/Q1296', label: 'Stad Gent' };

/** The record of one planned object. */
export function buildObject(plan: ObjectPlan, ctx: ObjectContext): ObjectRecord {
  const rng = new Rng(ctx.seed, `object:${plan.number}`);
  const record = plan.anchor?.real ? realObject(rng, plan, plan.anchor.real, ctx) : inventObject(rng, plan, ctx);
  checkReferences(record, ctx);
  return assertValid('objects', plan.number, record);
}

function conceptByKey(ctx: ObjectContext, key: string): ConceptInfo {
  const info = ctx.thesaurus.byKey.get(key);
  if (!info) throw new Error(`object generator names unknown concept ${key}`);
  return info;
}

function agentByKey(ctx: ObjectContext, key: string): AgentInfo {
  const info = ctx.agents.byKey.get(key);
  if (!info) throw new Error(`object generator names unknown agent ${key}`);
  return info;
}

/** The first index whose birth (or founding) year is greater than `year`. */
function upperByBirth(list: readonly AgentInfo[], year: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (((list[mid] as AgentInfo).birth ?? 0) <= year) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A designer active in `year` (born 20 to 75 years before), from the industry, else from any. */
function pickDesigner(rng: Rng, agents: AgentPool, industry: Industry, year: number): AgentInfo | undefined {
  for (const list of [agents.persons.get(industry), agents.persons.get('general'), agents.allPersons]) {
    if (!list || list.length === 0) continue;
    const from = upperByBirth(list, year - 76);
    const to = upperByBirth(list, year - 20);
    if (to > from) return list[rng.int(from, to - 1)];
  }
  return undefined;
}

/** A maker founded by `year` and not yet dissolved then. */
function pickMaker(rng: Rng, agents: AgentPool, industry: Industry, year: number): AgentInfo | undefined {
  for (const list of [agents.organisations.get(industry), agents.organisations.get('general'), agents.allOrganisations]) {
    if (!list || list.length === 0) continue;
    const upTo = upperByBirth(list, year);
    for (let i = 0; i < 24 && upTo > 0; i++) {
      const candidate = list[rng.int(0, upTo - 1)] as AgentInfo;
      if (candidate.death === undefined || candidate.death >= year) return candidate;
    }
  }
  return undefined;
}

/** Where an agent worked: an organisation mostly at its seat, a person often where they were born. */
function placeOf(rng: Rng, agent: AgentInfo | undefined): PlaceKey | undefined {
  if (agent?.birthPlace && rng.chance(agent.kind === 'organisation' ? 0.9 : 0.6)) return agent.birthPlace;
  const places = agent ? placesOf(agent.country) : [];
  if (places.length > 0) return rng.pick(places);
  return rng.chance(0.5) ? rng.pick(placesOf('BEL')) : undefined;
}

function textLangs(rng: Rng): Lang[] {
  const r = rng.next();
  if (r < 0.4) return ['nl'];
  if (r < 0.6) return ['nl', 'en'];
  if (r < 0.88) return ['nl', 'fr', 'en'];
  if (r < 0.96) return ['nl', 'fr'];
  if (r < 0.975) return ['fr'];
  if (r < 0.99) return ['en'];
  return ['fr', 'en'];
}

function event<T extends Production | Creation>(base: T, agent: AgentInfo | undefined, place: PlaceKey | undefined, date: DateSpan | undefined): T {
  const out = {} as T;
  if (agent) out.agent = agent.pid;
  if (place) out.place = placeRef(place);
  if (date) out.date = date;
  return Object.assign(out, base);
}

function inventObject(rng: Rng, plan: ObjectPlan, ctx: ObjectContext): ObjectRecord {
  const { family, traits } = plan;
  const { thesaurus, agents } = ctx;

  // Types and materials.
  const typeKeys = traits.types ?? [rng.pick(family.types)];
  const types = typeKeys.map((k) => conceptByKey(ctx, k).pid);
  const typeDescendants = thesaurus.descendants.get(typeKeys[0] as string);
  if (!traits.types && typeDescendants && typeDescendants.length > 0 && rng.chance(0.35)) types[0] = rng.pick(typeDescendants);
  if (!traits.types && family.parts.includes('deksel') && rng.chance(0.1)) types.push(conceptByKey(ctx, 'deksel').pid);
  const typeInfo = thesaurus.byPid.get(types[0] as string) as ConceptInfo;

  // The period the object can date from: the family's range, before its acquisition, within its makers' lives.
  let lo = family.years[0];
  let hi = Math.min(family.years[1], plan.acqYear ?? LAST_YEAR);
  const forcedDesigner = traits.designer ? agentByKey(ctx, traits.designer) : undefined;
  const forcedMaker = traits.maker ? agentByKey(ctx, traits.maker) : undefined;
  if (forcedDesigner?.birth !== undefined) {
    lo = Math.max(lo, forcedDesigner.birth + 20);
    hi = Math.min(hi, forcedDesigner.death ?? hi);
  }
  if (forcedMaker?.birth !== undefined) {
    lo = Math.max(lo, forcedMaker.birth);
    hi = Math.min(hi, forcedMaker.death ?? hi);
  }
  if (lo > hi) lo = hi;
  const fixedDate = traits.dating === 'creationOnly' ? undefined : traits.date;
  const dating: Dating = traits.dating ?? (traits.date ? 'single' : rng.weighted(DATING_WEIGHTS));
  // Re-editions need room before the acquisition.
  const yearHi = dating === 'several' && hi - 25 >= lo ? hi - 25 : hi;
  const year = traits.date?.begin ?? sampleYear(rng, lo, yearHi);

  // Materials that existed by then.
  const inUse = (key: string): boolean => (MATERIAL_SINCE[key] ?? 0) <= year;
  const familyMaterials = family.materials.filter(inUse);
  const materialKeys = traits.materials ? [...traits.materials] : [rng.pick(familyMaterials.length > 0 ? familyMaterials : family.materials)];
  const extras = family.extraMaterials.filter(inUse);
  if (!traits.materials && extras.length > 0 && rng.chance(0.35)) {
    const extra = rng.pick(extras);
    if (!materialKeys.includes(extra)) materialKeys.push(extra);
  }
  const materials = materialKeys.map((k) => conceptByKey(ctx, k).pid);
  const materialDescendants = materialKeys[0] === undefined ? undefined : thesaurus.descendants.get(materialKeys[0]);
  if (!traits.materials && materialDescendants && materialDescendants.length > 0 && rng.chance(0.15)) materials[0] = rng.pick(materialDescendants);
  const materialInfo = materials[0] === undefined ? undefined : thesaurus.byPid.get(materials[0]);
  const group = materialInfo?.group;
  const industry: Industry = family.industry ?? (group ? INDUSTRY_BY_GROUP[group] : 'general');

  let maker = forcedMaker ?? (rng.chance(0.85) ? pickMaker(rng, agents, industry, year) : undefined);
  let designer = forcedDesigner ?? (rng.chance(0.5) ? pickDesigner(rng, agents, industry, year) : undefined);
  if (!forcedMaker && year >= 1981 && year <= 1988 && MEMPHIS_FAMILIES.has(family.key) && rng.chance(0.3)) {
    maker = agentByKey(ctx, 'memphis');
    designer = forcedDesigner ?? agentByKey(ctx, rng.pick(MEMPHIS_DESIGNERS));
  }

  // Productions and creations.
  const techniquePool = (group ? TECHNIQUES_BY_GROUP[group] : []).filter((k) => (TECHNIQUE_SINCE[k] ?? 0) <= year);
  const techniques = (): string[] =>
    techniquePool.length === 0 || rng.chance(0.15) ? [] : rng.sample(techniquePool, rng.int(1, 3)).map((k) => conceptByKey(ctx, k).pid);
  const productions: Production[] = [];
  const creations: Creation[] = [];
  let firstDate: DateSpan | undefined;
  if (dating === 'undated') {
    if (maker || rng.chance(0.5)) productions.push(event({ techniques: techniques() }, maker, placeOf(rng, maker), undefined));
    if (designer) creations.push(event({}, designer, undefined, undefined));
  } else if (dating === 'creationOnly') {
    const date = traits.date ?? makeSpan(rng, rng.chance(0.7) ? 'single' : 'range', year, hi);
    creations.push(event({}, designer, placeOf(rng, designer), date));
    firstDate = date;
  } else {
    const kind: Dating = dating === 'several' ? (rng.chance(0.6) ? 'single' : 'range') : dating;
    firstDate = fixedDate ?? makeSpan(rng, kind, year, hi);
    productions.push(event({ techniques: techniques() }, maker, placeOf(rng, maker), firstDate));
    if (dating === 'several') {
      let previous = firstDate.end;
      const editions = plan.anchor ? 3 : rng.int(2, 3);
      const until = plan.acqYear ?? LAST_YEAR;
      for (let e = 1; e < editions; e++) {
        // Leave room for the editions still to come.
        const ceiling = until - (editions - 1 - e) * 8;
        const from = previous + 5;
        if (from > ceiling) break;
        const reYear = rng.int(from, Math.min(ceiling, from + 40));
        const reMaker = pickMaker(rng, agents, industry, reYear) ?? maker;
        const date = makeSpan(rng, rng.chance(0.5) ? 'single' : 'range', reYear, ceiling);
        productions.push(event({ techniques: techniques() }, reMaker, placeOf(rng, reMaker), date));
        previous = date.end;
      }
    }
    if (designer) {
      const designYear = Math.max(1600, firstDate.begin - rng.int(0, 3));
      const date = rng.chance(0.7) ? { label: `${designYear}`, begin: designYear, end: designYear } : undefined;
      creations.push(event({}, designer, rng.chance(0.5) ? placeOf(rng, designer) : undefined, date));
    }
  }

  // Acquisition.
  const method: AcquisitionMethod = traits.acquisition ?? rng.weighted(ACQUISITION_WEIGHTS);
  let acquisitionYear: number | undefined;
  if (method !== 'onbekend') {
    if (plan.acqYear !== undefined) acquisitionYear = plan.acqYear;
    else if (method === 'bruikleen') acquisitionYear = rng.int(Math.max(1985, firstDate?.end ?? 1985), 2020);
    else if (rng.chance(0.5)) acquisitionYear = Math.max(firstDate?.end ?? 1903, rng.int(1903, 1960));
  }
  let acquisition: ObjectRecord['acquisition'];
  if (traits.acquisition || rng.chance(0.96)) {
    acquisition = { method };
    if (acquisitionYear !== undefined) acquisition.year = acquisitionYear;
    if (rng.chance(0.15)) acquisition.place = placeRef(rng.pick(ACQUISITION_PLACES));
    if (rng.chance(0.02)) acquisition.receiver = STAD_GENT;
  }

  // Dimensions and parts.
  const unitRoll = rng.next();
  const largest = Math.max(...family.dims.map((d) => d[2]));
  const unit: Dimension['unit'] = traits.unit ?? (unitRoll < 0.03 ? 'mm' : unitRoll < 0.05 && largest >= 100 ? 'm' : 'cm');
  const dimensions: Dimension[] = plan.anchor || rng.chance(0.95) ? family.dims.map(([type, min, max]) => dimension(type, min + rng.next() * (max - min), unit)) : [];
  const parts: ObjectRecord['parts'] = [];
  if (family.parts.length > 0 && (traits.parts ?? rng.chance(0.08))) {
    const labels = rng.sample(family.parts, traits.parts ? Math.min(3, family.parts.length) : rng.int(1, Math.min(2, family.parts.length)));
    for (const label of labels) {
      const [type, min, max] = rng.pick(family.dims);
      parts.push({
        label,
        materials: [rng.pick(materials.length > 0 ? materials : [conceptByKey(ctx, rng.pick(family.materials)).pid])],
        dimensions: [dimension(type, (min + rng.next() * (max - min)) * (0.2 + rng.next() * 0.4), unit)],
      });
    }
  }

  // Texts.
  const firstProduction = productions[0];
  const placeKey = firstProduction?.place ? placeKeyOf(firstProduction.place.uri) : undefined;
  const textInput: TextInput = {
    family,
    type: typeInfo.word,
    techniques: (firstProduction?.techniques ?? []).map((pid) => (thesaurus.byPid.get(pid) as ConceptInfo).word),
  };
  if (materialInfo) textInput.material = materialInfo.word;
  if (plan.set) textInput.set = plan.set;
  if (designer && creations.some((c) => c.agent === designer?.pid)) textInput.designer = designer.name;
  if (firstProduction?.agent) textInput.maker = (agents.byPid.get(firstProduction.agent) as AgentInfo).name;
  if (placeKey) textInput.place = PLACES[placeKey];
  if (firstDate) {
    textInput.dateLabel = firstDate.label;
    textInput.year = firstDate.begin;
  }
  if (acquisition) textInput.acquisition = acquisitionYear === undefined ? { method } : { method, year: acquisitionYear };
  const titleLangs = traits.titleLangs ?? textLangs(rng);
  const titles = traits.titles ?? pickLangs(inventTitle(rng, textInput), titleLangs);
  const descriptionLangs = traits.descLangs ?? (rng.chance(0.2) ? [] : rng.chance(0.7) ? titleLangs : textLangs(rng));
  const descriptions = traits.descriptions ?? pickLangs(inventDescription(rng, textInput), descriptionLangs);

  // Sub-collections.
  const collections = new Set<string>();
  if (firstDate && rng.chance(0.6)) collections.add(periodCollection(firstDate.begin, maker, designer, ctx));
  if (family.collection && rng.chance(0.8)) collections.add(family.collection);
  if (materialKeys.includes('zilver') && rng.chance(0.7)) collections.add('zilvercollectie');
  if (group === 'glass' && rng.chance(0.7)) collections.add('glascollectie');
  const subCollections = [...collections].map((k) => conceptByKey(ctx, k).pid);

  // Media and images.
  const mainTitle = titles.nl ?? titles.en ?? titles.fr ?? plan.number;
  const videos: ObjectRecord['media']['videos'] = [];
  const audios: ObjectRecord['media']['audios'] = [];
  if (traits.video ?? rng.chance(0.02)) {
    const url = rng.chance(0.5) ? `https://www.youtube.com/watch?v=${rng.hex(11)}` : `https://vimeo.com/${rng.int(100_000_000, 999_999_999)}`;
    videos.push({ url, title: `Video: ${mainTitle}`, year: rng.int(2010, 2025) });
  }
  if (traits.audio ?? rng.chance(0.015)) {
    audios.push({ url: `https://soundcloud.com/designmuseumgent/${slug(mainTitle)}-${plan.number.toLowerCase()}`, title: `Audiogids: ${mainTitle}`, year: rng.int(2012, 2025) });
  }
  const creativeProjects: ObjectRecord['creativeProjects'] = [];
  if (traits.creativeProject ?? rng.chance(0.007)) {
    const kind = rng.pick(['Workshop', 'Residentie', 'Ontwerpwedstrijd', 'Schoolproject']);
    creativeProjects.push({ title: `${kind} rond ${mainTitle}`, url: `https://www.designmuseumgent.be/nl/projecten/${slug(`${kind} ${plan.number}`)}`, year: rng.int(2015, 2025) });
  }
  const latest = productions.reduce((max, p) => Math.max(max, p.date?.end ?? 0), firstDate?.end ?? 0);
  const images = objectImages(rng, plan, ctx, group, latest > 0 && latest < 1925);

  return {
    objectNumber: plan.number,
    titles,
    descriptions,
    types,
    materials,
    subCollections,
    productions,
    creations,
    ...(acquisition ? { acquisition } : {}),
    dimensions,
    parts,
    ...(plan.set && plan.role === 'member' ? { partOfSet: plan.set.koepel } : {}),
    exhibitions: plan.exhibitions,
    media: { ...(images.length > 0 ? { manifest: manifestUrl(ctx, plan.number) } : {}), videos, audios },
    images,
    creativeProjects,
    onDisplay: plan.onDisplay,
    healthy: plan.healthy,
    state: plan.state,
    ...recordTimes(rng),
    public: plan.public,
    sameAs: rng.chance(0.95) ? [`https://stad.gent/id/mensgemaaktobject/dmg/${STAD_GENT_OBJECT_START + plan.index}`] : [],
  };
}

function realObject(rng: Rng, plan: ObjectPlan, real: RealObject, ctx: ObjectContext): ObjectRecord {
  const concept = (k: string): string => conceptByKey(ctx, k).pid;
  const maker = agentByKey(ctx, real.maker);
  const production: Production = event({ techniques: real.techniques.map(concept) }, maker, real.place, real.productionDate);
  const creations: Creation[] = real.designer ? [event({}, agentByKey(ctx, real.designer), real.place, real.creationDate)] : [];
  const acquisition: NonNullable<ObjectRecord['acquisition']> = { method: real.acquisition.method };
  if (real.acquisition.year !== undefined) acquisition.year = real.acquisition.year;
  if (real.acquisition.place) acquisition.place = placeRef(real.acquisition.place);
  const imageId = ctx.images.fixed(real.image.key);
  const publicDomain = (real.productionDate?.end ?? 9999) < 1925;
  return {
    objectNumber: plan.number,
    titles: real.titles,
    descriptions: real.descriptions,
    types: real.types.map(concept),
    materials: real.materials.map(concept),
    subCollections: real.subCollections.map(concept),
    productions: [production],
    creations,
    acquisition,
    dimensions: real.dimensions.map(([type, value]) => ({ type, value, unit: 'cm' as const })),
    parts: [],
    ...(plan.set && plan.role === 'member' ? { partOfSet: plan.set.koepel } : {}),
    exhibitions: plan.exhibitions,
    media: { manifest: manifestUrl(ctx, plan.number), videos: [], audios: [] },
    images: [imageRecord(rng, ctx, imageId, publicDomain)],
    creativeProjects: [],
    onDisplay: plan.onDisplay,
    healthy: plan.healthy,
    state: plan.state,
    ...recordTimes(rng),
    public: plan.public,
    sameAs: [`https://stad.gent/id/mensgemaaktobject/dmg/${STAD_GENT_OBJECT_START + plan.index}`],
  };
}

function manifestUrl(ctx: ObjectContext, number: string): string {
  return `${ctx.iiifBase}/iiif/manifest/${number}`;
}

/** Registrar units: cm with one decimal, mm as whole numbers, m with three decimals. */
function dimension(type: string, cm: number, unit: Dimension['unit']): Dimension {
  const tenths = Math.max(1, Math.round(cm * 10));
  if (unit === 'mm') return { type, value: tenths, unit };
  if (unit === 'm') return { type, value: tenths / 1000, unit };
  return { type, value: tenths / 10, unit };
}

function placeKeyOf(uri: string): PlaceKey | undefined {
  const id = Number(/\/(\d+)\/$/.exec(uri)?.[1]);
  return (Object.keys(PLACES) as PlaceKey[]).find((k) => PLACES[k].geonames === id);
}

function periodCollection(year: number, maker: AgentInfo | undefined, designer: AgentInfo | undefined, ctx: ObjectContext): string {
  if (year < 1880) return 'oude kunst en ambachten';
  if (year < 1915) return 'art nouveau';
  if (year < 1945) return 'art deco';
  if (maker && maker.pid === ctx.agents.byKey.get('memphis')?.pid) return 'Memphis-collectie';
  const nordic = (a: AgentInfo | undefined): boolean => a !== undefined && ['DNK', 'SWE', 'FIN', 'NOR'].includes(a.country);
  if (nordic(maker) || nordic(designer)) return 'Scandinavisch design';
  if (year >= 1975 && year < 1995) return 'postmodern design';
  if (year >= 1995) return 'hedendaags design';
  return 'design na 1945';
}

/** Every pid a record names must be in the collection, and redirect targets must be served objects. */
function checkReferences(record: ObjectRecord, ctx: ObjectContext): void {
  const n = record.objectNumber;
  for (const pid of [...record.types, ...record.materials, ...record.subCollections, ...record.productions.flatMap((p) => p.techniques), ...record.parts.flatMap((p) => p.materials)]) {
    assertReference(ctx.thesaurus.byPid.has(pid), `${n} → concept ${pid}`);
  }
  for (const e of [...record.productions, ...record.creations]) {
    if (e.agent) assertReference(ctx.agents.byPid.get(e.agent)?.public === true, `${n} → agent ${e.agent}`);
  }
  for (const pid of record.exhibitions) assertReference(ctx.exhibitionPids.has(pid), `${n} → exhibition ${pid}`);
  if (record.partOfSet) assertReference(ctx.plan.byNumber.get(record.partOfSet)?.role === 'koepel', `${n} → koepel ${record.partOfSet}`);
  if ('into' in record.state) {
    const target = ctx.plan.byNumber.get(record.state.into);
    assertReference(target !== undefined && target.state.kind === 'current' && target.public && target.healthy, `${n} → redirect target ${record.state.into}`);
  }
  for (const image of record.images) assertReference(ctx.images.byId.has(image.iiifBase.slice(image.iiifBase.lastIndexOf('/') + 1)), `${n} → image ${image.iiifBase}`);
}
