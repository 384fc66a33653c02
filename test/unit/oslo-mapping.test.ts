/**
 * The mapping of Ghent's members to source records (src/harvest/ldes/oslo.ts) on members written here by hand,
 * in the statements Ghent's contexts expand to (test/fixtures/ldes/coghent/member-dmg-object-2004-0056.EXPANDED.nq
 * shows them): the cases the real fixture does not have — a set whose head is harvested, a type named through
 * the thesaurus's owl:sameAs, an object on display, members that cannot be records, dates of every EDTF form,
 * and dimension values that arrive as IRIs resolved against the page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { edtfSpan, osloExport, type OsloExport } from '../../src/harvest/ldes/oslo.js';
import { DEFAULT_FOLLOW_OPTIONS, followStream } from '../../src/harvest/ldes/follow.js';
import { latestEntries, readMembers, type JournalEntry, type JournalMember } from '../../src/harvest/ldes/journal.js';
import { GHENT_FIXTURES, serveGhentStreams } from '../helpers/ghent-streams.js';
import { tempDir } from './store-fixtures.js';
import { RECORD_SCHEMAS } from '../../src/harvest/schema.js';

const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const A = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const ID = 'https://stad.gent/id/identificatiesysteem/';
const PAGE = 'https://ghent.test/v1/dmg/objecten?generatedAtTime=2024-01-01T00:00:00.000Z';
const PAGE_FOLDER = 'https://ghent.test/v1/dmg/';

/** A member: its entity, time and N-Quads lines (`$` is the version IRI). */
function member(entity: string, time: string, lines: string[]): JournalMember {
  const id = `${entity}/${time}`;
  const nquads = lines.map((l) => `${l.split('$').join(`<${id}>`)} .\n`).join('');
  return { id, page: PAGE, versionOf: entity, time, nquads };
}
const identifier = (system: string, value: string, node: string): string[] => [`$ <http://www.w3.org/ns/adms#identifier> _:${node}`, `_:${node} <${SKOS}notation> "${value}"^^<${ID}${system}>`];

const object = (priref: string, number: string | undefined, time: string, extra: string[] = []): JournalMember =>
  member(`https://stad.gent/id/mensgemaaktobject/dmg/${priref}`, time, [`$ ${A} <${CRM}E22_Human-Made_Object>`, ...(number === undefined ? [] : identifier('objectnummer', number, `n${priref}`)), `$ <${CRM}P102_has_title> "Titel ${priref}"`, ...extra]);

describe("Ghent's members as source records", () => {
  it('maps a set whose head is harvested, a type named by the thesaurus through owl:sameAs, and an object on display', async () => {
    const aat = 'http://vocab.getty.edu/aat/300042991';
    const concept = member('https://stad.gent/id/concept/530000049', '2024-01-01T00:00:00.000Z', [
      `$ ${A} <${SKOS}Concept>`,
      ...identifier('priref', '530000049', 'c'),
      `$ <${SKOS}prefLabel> "bord"@nl`,
      `$ <${SKOS}prefLabel> "plate"@en`,
      `$ <http://www.w3.org/2002/07/owl#sameAs> <${aat}>`,
    ]);
    const head = object('530000010', '2008-0038_00-14', '2024-01-02T00:00:00.000Z', [`$ <${CRM}P55_has_current_location> <https://www.wikidata.org/wiki/Q1809071>`]);
    const part = object('530000011', '2008-0038_11-14', '2024-01-03T00:00:00.000Z', [
      `$ <${CRM}P46i_forms_part_of> <https://stad.gent/id/mensgemaaktobject/dmg/530000010>`,
      `<https://stad.gent/id/mensgemaaktobject/dmg/530000010> ${A} <${CRM}E78_Collection>`,
      `$ <${CRM}P41i_was_classified_by> _:t`,
      `_:t <${CRM}P42_assigned> <${aat}>`,
      `<${aat}> <${SKOS}prefLabel> "bord (vaatwerk)"@nl`,
      `$ <${CRM}P55_has_current_location> _:l`,
      `_:l <${SKOS}note> "depot"`,
    ]);
    const out = await osloExport([part, head, concept]);
    const [h, p] = out.objects;
    expect(out.objects.map((o) => o.objectNumber)).toEqual(['2008-0038_00-14', '2008-0038_11-14']);
    expect(p?.partOfSet).toBe('2008-0038_00-14');
    expect(h?.partOfSet).toBeUndefined();
    // The thesaurus's record, not one made from the object's label.
    expect(p?.types).toEqual(['530000049']);
    expect(out.concepts.map((c) => [c.pid, c.labels])).toEqual([['530000049', { nl: 'bord', en: 'plate' }]]);
    expect([h?.onDisplay, p?.onDisplay]).toEqual([true, false]);
    // An untagged title is Dutch (Ghent's streams answer in nl).
    expect(p?.titles).toEqual({ nl: 'Titel 530000011' });
    expect(out.dropped).toEqual([]);
    for (const o of out.objects) expect(RECORD_SCHEMAS.objects.safeParse(o).error).toBeUndefined();
  });

  it("reads dimension values and types that the context's @id typing resolved against the page, and drops a foreign unit", async () => {
    const dims = object('530000020', '2004-0056', '2024-01-01T00:00:00.000Z', [
      `$ <${CRM}P43_has_dimension> _:d1`,
      `_:d1 ${A} <${CRM}E54_Dimension>`,
      `_:d1 <${CRM}P2_has_type> <${PAGE_FOLDER}hoogte>`,
      `_:d1 <https://schema.org/value> <${PAGE_FOLDER}2.5>`,
      `_:d1 <https://schema.org/unitText> "cm"`,
      `$ <${CRM}P43_has_dimension> _:d2`,
      `_:d2 <${CRM}P2_has_type> <${PAGE_FOLDER}breedte>`,
      `_:d2 <https://schema.org/value> <${PAGE_FOLDER}13>`,
      `_:d2 <https://schema.org/unitText> "inch"`,
    ]);
    const out = await osloExport([dims]);
    expect(out.objects[0]?.dimensions).toEqual([{ type: 'hoogte', value: 2.5, unit: 'cm' }]);
    expect(out.dropped).toEqual([{ record: '2004-0056', reason: expect.stringContaining('a unit of mm, cm or m') as unknown as string }]);
  });

  it('leaves out, and names, the members that cannot be records', async () => {
    const noNumber = object('530000030', undefined, '2024-01-01T00:00:00.000Z');
    const badNumber = object('530000031', 'not a number', '2024-01-01T00:00:00.000Z');
    const exhibition = (priref: string, reference: string, span: string | undefined): JournalMember =>
      member(`https://stad.gent/id/tentoonstelling/${priref}`, '2024-01-01T00:00:00.000Z', [
        `$ ${A} <http://www.w3.org/ns/prov#Activity>`,
        ...identifier('referentienummer', reference, `r${priref}`),
        ...(span === undefined ? [] : [`$ <${CRM}P4_has_time-span> "${span}"^^<http://id.loc.gov/datatypes/edtf/EDTF>`]),
      ]);
    const something = member('https://stad.gent/id/dossier/1', '2024-01-01T00:00:00.000Z', [`$ ${A} <http://www.w3.org/ns/dcat#Dataset>`]);
    const out = await osloExport([noNumber, badNumber, exhibition('1', 'TE_1990-001', '1990/1991'), exhibition('2', 'TE_1990-002', undefined), exhibition('3', 'X-12', '1990'), exhibition('4', 'TE_1990-004', '1990-02/1990-03'), something]);
    expect(out.skipped.map((s) => [s.id.split('/').slice(-2, -1)[0], s.reason]).sort()).toEqual([
      ['1', 'not an object, exhibition, agent or concept'],
      ['2', 'exhibition TE_1990-002: no dates (no time-span)'],
      ['3', 'an exhibition without a reference number of the form TE_<year>-<serial> (X-12)'],
      ['530000030', 'an object without an object number'],
      ['530000031', 'object number "not a number" is not one this service can serve'],
    ]);
    // A year alone opens on 1 January and closes on 31 December; a month on its first and last day.
    expect(out.exhibitions.map((e) => [e.pid, e.begin, e.end])).toEqual([
      ['TE_1990-001', '1990-01-01', '1991-12-31'],
      ['TE_1990-004', '1990-02-01', '1990-03-31'],
    ]);
  });

  it('makes a record for an agent only named, timed by the earliest member naming it', async () => {
    const production = (priref: string, time: string): JournalMember =>
      object(priref, `2000-${priref.slice(-4)}`, time, [
        `$ <${CRM}P108i_was_produced_by> _:p`,
        `_:p <${CRM}P14_carried_out_by> _:c`,
        `_:c <https://linked.art/ns/terms/equivalent> <https://stad.gent/id/agent/530001434>`,
        `<https://stad.gent/id/agent/530001434> <http://www.w3.org/2000/01/rdf-schema#label> "De Porceleyne Fles"@nl`,
        `_:p <${CRM}P4_has_time-span> "1920~/1930"^^<http://id.loc.gov/datatypes/edtf/EDTF>`,
      ]);
    const out = await osloExport([production('530000041', '2024-03-01T00:00:00.000Z'), production('530000040', '2024-02-01T00:00:00.000Z')]);
    expect(out.agents).toEqual([
      expect.objectContaining({ pid: '530001434', name: 'De Porceleyne Fles', harvestedAt: '2024-02-01T00:00:00.000Z', sameAs: ['https://stad.gent/id/agent/530001434'] }),
    ]);
    expect(out.objects.map((o) => o.productions)).toEqual([
      [{ agent: '530001434', date: { label: '1920~/1930', begin: 1920, end: 1930 }, techniques: [] }],
      [{ agent: '530001434', date: { label: '1920~/1930', begin: 1920, end: 1930 }, techniques: [] }],
    ]);
    for (const a of out.agents) expect(RECORD_SCHEMAS.agents.safeParse(a).error).toBeUndefined();
  });

  it('reads EDTF dates as the years they span', () => {
    expect(edtfSpan('1988/1988')).toEqual({ label: '1988/1988', begin: 1988, end: 1988 });
    expect(edtfSpan('1988')).toEqual({ label: '1988', begin: 1988, end: 1988 });
    expect(edtfSpan('../1990')).toEqual({ label: '../1990', begin: 1990, end: 1990 });
    expect(edtfSpan('1850?/..')).toEqual({ label: '1850?/..', begin: 1850, end: 1850 });
    expect(edtfSpan('1979-12-14/1980-02-10')).toEqual({ label: '1979-12-14/1980-02-10', begin: 1979, end: 1980 });
    expect(edtfSpan('..')).toBeUndefined();
    expect(edtfSpan('1990/1980')).toBeUndefined();
    expect(edtfSpan('onbekend')).toBeUndefined();
  });
});

/**
 * The real members of test/fixtures/ldes/coghent, read as the harvest reads them (served as Ghent serves them,
 * followed into journals), each mapped whole and held against the record written out here by hand from the
 * member's JSON: the mapping, field by field, on Ghent's own data.
 */
describe("Ghent's real members, field by field", () => {
  let exported: OsloExport;
  const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(GHENT_FIXTURES, name), 'utf8')) as Record<string, unknown>;

  beforeAll(async () => {
    const streams = await serveGhentStreams();
    const { dir, remove } = await tempDir('oslo-real-');
    try {
      const latest = new Map<string, JournalEntry>();
      for (const [kind, url] of Object.entries(streams.urls)) {
        await followStream(url, path.join(dir, kind), { ...DEFAULT_FOLLOW_OPTIONS, pagesPerSecond: 1000 });
        await latestEntries(path.join(dir, kind), latest);
      }
      const members: JournalMember[] = [];
      for await (const m of readMembers(latest.values())) members.push(m);
      exported = await osloExport(members);
    } finally {
      await streams.close();
      await remove();
    }
  });

  it('an object: 2004-0056 (priref 530000019)', () => {
    const member = fixture('member-dmg-object-2004-0056.jsonld');
    const record = exported.objects.find((o) => o.objectNumber === '2004-0056');
    expect({ ...record, dimensions: [...(record?.dimensions ?? [])].sort((a, b) => a.type.localeCompare(b.type)) }).toEqual({
      objectNumber: '2004-0056',
      titles: { nl: "Bord van het servies 'Albertine'" },
      descriptions: { nl: (member['Entiteit.beschrijving'] as { '@value': string })['@value'] },
      // Object name and material: Getty AAT terms the thesaurus stream here does not describe.
      types: ['aat-300042991'],
      materials: ['aat-300010662'],
      // The two collections ("jaren 1980", "Bořek Šípek") name themselves in a key typed as an IRI: lost in RDF.
      subCollections: [],
      // Produced by De Porceleyne Fles in Delft, date unknown (".."); designed by Šipek in the Netherlands in 1988.
      productions: [{ agent: '530001434', place: { uri: 'http://vocab.getty.edu/tgn/7006804', label: 'Delft' }, techniques: [] }],
      creations: [{ agent: '530001503', place: { uri: 'http://vocab.getty.edu/tgn/7016845', label: 'Nederland' }, date: { label: '1988/1988', begin: 1988, end: 1988 } }],
      acquisition: { method: 'schenking', year: 2004, place: { uri: 'http://vocab.getty.edu/tgn/7006843', label: 'Aalst' } },
      dimensions: [
        { type: 'breedte', value: 33.9, unit: 'cm' },
        { type: 'diepte', value: 27.3, unit: 'cm' },
        { type: 'hoogte', value: 2.5, unit: 'cm' },
      ],
      parts: [],
      // "La nef des fous" carries no IRI in this 2023 member, and the exhibitions stream here does not list it.
      exhibitions: [],
      media: { manifest: 'https://api.collectie.gent/iiif/presentation/v2/manifest/dmg:2004-0056', videos: [], audios: [] },
      images: [],
      creativeProjects: [],
      // "depot".
      onDisplay: false,
      healthy: true,
      state: { kind: 'current' },
      harvestedAt: '2023-02-13T16:20:28.587Z',
      modified: '2023-02-13',
      public: true,
      sameAs: ['https://stad.gent/id/mensgemaaktobject/dmg/530000019'],
    });
  });

  it('the agents the object names, from the labels it carries', () => {
    expect(exported.agents.filter((a) => a.pid === '530001434' || a.pid === '530001503')).toEqual([
      { pid: '530001434', name: 'De Porceleyne Fles', alternativeNames: [], wikipediaTitles: [], biographies: [], relations: [], harvestedAt: '2023-02-13T16:20:28.587Z', modified: '2023-02-13', public: true, sameAs: ['https://stad.gent/id/agent/530001434'] },
      { pid: '530001503', name: 'Šipek, Bořek', alternativeNames: [], wikipediaTitles: [], biographies: [], relations: [], harvestedAt: '2023-02-13T16:20:28.587Z', modified: '2023-02-13', public: true, sameAs: ['https://stad.gent/id/agent/530001503'] },
    ]);
  });

  it('an exhibition: TE_1979-008 (priref 530000105)', () => {
    expect(exported.exhibitions.find((e) => e.pid === 'TE_1979-008')).toEqual({
      pid: 'TE_1979-008',
      titles: { nl: 'Glasramen van Armand Blondeel' },
      begin: '1979-12-14',
      end: '1980-02-10',
      venue: { uri: 'https://stad.gent/id/concept/530002625', label: 'Museum voor Sierkunst' },
      // Its poster, by object number; not among the objects here, so the harvest drops it.
      objects: ['TE_1979-008_Affiche'],
      descriptions: {},
      publications: [],
      media: [],
      views: [],
      harvestedAt: '2023-02-13T16:19:42.971Z',
      modified: '2023-02-13',
      public: true,
      sameAs: ['https://stad.gent/id/tentoonstelling/530000105'],
    });
  });

  it('an agent of the agents stream: 470000128', () => {
    const member = fixture('member-agent-hva-470000128.jsonld');
    expect(exported.agents.find((a) => a.pid === '470000128')).toEqual({
      pid: '470000128',
      name: 'De Baets, Polydoor',
      alternativeNames: [],
      wikipediaTitles: [],
      birth: { year: 1897 },
      death: { year: 1979 },
      biographies: [{ lang: 'nl', text: String(member['skos:note']).trim(), source: 'https://stad.gent/id/agent/470000128/2023-02-13T16:20:02.874Z', licence: 'https://creativecommons.org/publicdomain/zero/1.0/' }],
      relations: [],
      harvestedAt: '2023-02-13T16:20:02.874Z',
      modified: '2023-02-13',
      public: true,
      sameAs: ['https://stad.gent/id/agent/470000128'],
    });
  });

  it('a concept of the thesaurus: 470000003, piano', () => {
    const member = fixture('member-concept-470000003-piano.jsonld');
    expect(exported.concepts.find((c) => c.pid === '470000003')).toEqual({
      pid: '470000003',
      labels: { nl: 'piano' },
      scopeNotes: { nl: String(member['skos:scopeNote']).trim() },
      broader: [{ uri: 'https://stad.gent/id/concept/470008929', label: 'muziekinstrument' }],
      harvestedAt: '2023-02-13T16:19:42.893Z',
      modified: '2023-02-13',
      public: true,
      sameAs: ['https://stad.gent/id/concept/470000003', 'http://vocab.getty.edu/aat/300042909'],
    });
  });

  it('leaves no member out, and every record passes the source schema', () => {
    expect(exported.skipped).toEqual([]);
    for (const kind of ['objects', 'agents', 'exhibitions', 'concepts'] as const) {
      for (const record of exported[kind]) expect([kind, RECORD_SCHEMAS[kind].safeParse(record).error]).toEqual([kind, undefined]);
    }
  });
});
