import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  IMAGES_FILE,
  RECORD_SCHEMAS,
  RELATION_TYPES,
  SOURCE_FILES,
  type AgentRecord,
  type ConceptRecord,
  type DateSpan,
  type ExhibitionRecord,
  type ObjectRecord,
  type SourceKind,
} from '../../src/harvest/schema.js';
import { anchorObjectCount } from '../../src/generator/plan.js';
import { collectionSizes, generateCollection, MAX_OBJECTS, streamCollection, type GeneratedCollection } from '../../src/generator/collection.js';
import { AGENT_IDS, EXHIBITION_IDS, idInBlock } from '../../src/generator/stad-gent-ids.js';
import { FIXED_IMAGES } from '../../src/generator/anchors.js';
import { DemoImage } from '../../src/generator/images.js';
import { SHAPES } from '../../src/generator/vocabulary/families.js';
import { IMAGE_CASES, imageCases } from '../../src/iiif/image-list.js';
import { writeCollection } from '../../src/generator/write.js';
import { commandLine } from '../helpers/commands.js';

const DEMO = { objects: 1000, seed: 1, iiifBase: 'http://localhost:3000' };
const FILES = [...Object.values(SOURCE_FILES), IMAGES_FILE];

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'generator-test-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function lines(dir: string, file: string): string[] {
  const text = readFileSync(join(dir, file), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n');
}

/** Years of an EDTF label with the uncertainty markers removed, as the spec's harvest stores them. */
function stripped(label: string): [number, number] {
  const [a, b = a] = label.split('/').map((part) => Number(part.replace(/[~?%]/g, '')));
  return [a as number, b as number];
}

let demo: GeneratedCollection;
let demoDir: string;
let objects: Map<string, ObjectRecord>;
let agents: Map<string, AgentRecord>;
let concepts: Map<string, ConceptRecord>;
let exhibitions: Map<string, ExhibitionRecord>;
let imageStatus: Map<string, string>;

beforeAll(() => {
  demo = generateCollection(DEMO);
  demoDir = tempDir();
  writeCollection(demoDir, demo);
  objects = new Map(demo.objects.map((o) => [o.objectNumber, o]));
  agents = new Map(demo.agents.map((a) => [a.pid, a]));
  concepts = new Map(demo.concepts.map((c) => [c.pid, c]));
  exhibitions = new Map(demo.exhibitions.map((e) => [e.pid, e]));
  imageStatus = new Map(demo.images.map((i) => [i.id, i.status]));
});

const object = (n: string): ObjectRecord => {
  const o = objects.get(n);
  if (!o) throw new Error(`object ${n} missing`);
  return o;
};
const label = (pid: string): string => concepts.get(pid)?.labels.nl ?? `?${pid}`;
const imageId = (iiifBase: string): string => iiifBase.slice(iiifBase.lastIndexOf('/') + 1);
const dates = (o: ObjectRecord): DateSpan[] => [...o.productions, ...o.creations].flatMap((e) => (e.date ? [e.date] : []));
const isServed = (n: string): boolean => {
  const o = objects.get(n);
  return o !== undefined && o.state.kind === 'current' && o.public && o.healthy;
};

describe('determinism', () => {
  it('writes byte-identical files for the same arguments, streamed or from memory', () => {
    const a = tempDir();
    const b = tempDir();
    writeCollection(a, streamCollection(DEMO));
    writeCollection(b, streamCollection(DEMO));
    for (const file of FILES) {
      const bytes = readFileSync(join(a, file));
      expect(bytes.equals(readFileSync(join(b, file)))).toBe(true);
      expect(bytes.equals(readFileSync(join(demoDir, file)))).toBe(true);
    }
  });

  it('writes different content for a different seed', () => {
    const other = tempDir();
    writeCollection(other, streamCollection({ ...DEMO, seed: 2 }));
    for (const file of [SOURCE_FILES.objects, SOURCE_FILES.agents, SOURCE_FILES.exhibitions, IMAGES_FILE]) {
      expect(readFileSync(join(other, file)).equals(readFileSync(join(demoDir, file)))).toBe(false);
    }
  });

  it('writes the same files from the command line as from the API', () => {
    const cli = tempDir();
    const api = tempDir();
    const command = commandLine('generate', ['--objects', '250', '--seed', '5', '--out', cli, '--iiif-base', 'http://iiif.test']);
    execFileSync(command.file, command.args, {
      cwd: process.cwd(),
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: 'pipe',
    });
    writeCollection(api, streamCollection({ objects: 250, seed: 5, iiifBase: 'http://iiif.test' }));
    for (const file of FILES) expect(readFileSync(join(cli, file)).equals(readFileSync(join(api, file)))).toBe(true);
  });

  it('refuses options it cannot honour', () => {
    expect(() => generateCollection({ ...DEMO, objects: 0 })).toThrow(/objects/);
    expect(() => generateCollection({ ...DEMO, seed: -1 })).toThrow(/seed/);
    expect(() => generateCollection({ ...DEMO, iiifBase: 'ftp://x/' })).toThrow(/iiifBase/);
  });
});

describe('file format', () => {
  it('has one record per line, each valid against the source-export schema', () => {
    for (const [kind, file] of Object.entries(SOURCE_FILES) as [SourceKind, string][]) {
      const rows = lines(demoDir, file);
      expect(rows.length).toBe(demo[kind].length);
      for (const row of rows) {
        expect(row).not.toContain('\r');
        RECORD_SCHEMAS[kind].parse(JSON.parse(row));
      }
    }
    for (const row of lines(demoDir, IMAGES_FILE)) DemoImage.parse(JSON.parse(row));
  });

  it('has the sizes derived from N: agents N/3, exhibitions N/20, concepts N/2, a few hundred images', () => {
    expect(demo.objects.length).toBe(1000);
    expect(demo.agents.length).toBe(333);
    expect(demo.exhibitions.length).toBe(50);
    expect(demo.concepts.length).toBe(500);
    expect(demo.images.length).toBe(300);
    expect(new Set(demo.objects.map((o) => o.objectNumber)).size).toBe(1000);
  });

  it('never makes fewer objects than the fixed examples need', () => {
    expect(generateCollection({ ...DEMO, objects: 5 }).objects.length).toBe(anchorObjectCount());
  });
});

describe('the real records of the reference', () => {
  it('contains the four objects of the museum excerpt with their Dutch titles, concepts, makers and dimensions', () => {
    expect(object('1482').titles).toEqual({ nl: 'Theebusje' });
    expect(object('TUP-0073').titles).toEqual({ nl: 'Micro+ Pitcher 1 l' });
    expect(object('2017-0095_1-3').titles).toEqual({ nl: 'Plia' });
    expect(object('0935').titles).toEqual({ nl: 'Vloerkleed uit de eigen woning van de ontwerper' });
    expect(object('0935').descriptions.nl).toMatch(/^Jules Boulez leverde net als andere Belgische/);

    const teaCaddy = object('1482');
    expect(teaCaddy.types.map(label)).toEqual(['theebusje', 'deksel']);
    expect(teaCaddy.materials.map(label)).toEqual(['keramiek (materiaal)']);
    expect(teaCaddy.productions[0]?.techniques.map(label)).toEqual(['vormgieten', 'bakken', 'schilderkunst (discipline)', 'verglazen', 'glazuren']);
    expect(agents.get(teaCaddy.productions[0]?.agent ?? '')?.name).toBe('Velten Vordamm Steingutfabrik');
    expect(teaCaddy.productions[0]?.place?.label).toBe('Velten');
    expect(teaCaddy.dimensions).toEqual([
      { type: 'hoogte', value: 13.5, unit: 'cm' },
      { type: 'diameter', value: 7.3, unit: 'cm' },
    ]);
    expect(teaCaddy.acquisition).toMatchObject({ method: 'aankoop', year: 1913 });

    const pitcher = object('TUP-0073');
    expect(pitcher.types.map(label)).toEqual(['microgolfovenschaal', 'deksel', 'kan']);
    expect(pitcher.materials.map(label)).toEqual(['polyetherimide']);
    expect(agents.get(pitcher.productions[0]?.agent ?? '')?.name).toBe('Tupperware');
    expect(pitcher.productions[0]?.place?.label).toBe('Aalst');
    expect(pitcher.acquisition).toMatchObject({ method: 'bruikleen', year: 2005 });

    const plia = object('2017-0095_1-3');
    expect(plia.types.map(label)).toEqual(['klapstoel']);
    expect(plia.productions[0]?.techniques.map(label)).toEqual(['verchromen']);
    expect(agents.get(plia.productions[0]?.agent ?? '')?.name).toBe('Anonima Castelli');
    expect(plia.productions[0]?.place?.label).toBe('Bologna');
    expect(plia.dimensions.map((d) => d.value)).toEqual([74.5, 46.5, 49]);
    expect(plia.acquisition?.method).toBe('oningeschreven gevonden');
    expect(plia.partOfSet).toBe('2017-0095_0-3');

    const rug = object('0935');
    expect(rug.types.map(label)).toEqual(['vloerkleed']);
    expect(rug.productions[0]?.techniques.map(label)).toEqual(['tapijtknopen']);
    expect(agents.get(rug.productions[0]?.agent ?? '')?.name).toBe('Studio de Saedeleer');
    expect(rug.productions[0]?.place?.label).toBe('Etikhove');
    expect(rug.acquisition).toEqual({ method: 'onbekend' });

    for (const n of ['1482', 'TUP-0073', '2017-0095_1-3', '0935']) expect(object(n).onDisplay).toBe(true);
  });

  it('contains the real single numbers, with 1987-1105 titled as in the reference', () => {
    for (const n of ['1987-1105', '1482', '0935', '3057', 'TUP-0073', '2017-0308', '1988-0028', '2004-0050', '1987-0013', '2022-0016', '2024-0006', '1999-0081', '1980-0205', '0559', '2017-0448']) {
      expect(isServed(n)).toBe(true);
    }
    expect(object('1987-1105').titles.nl).toBe('Beeldje van een vis in opaalglas');
  });

  it('contains the real koepelrecords with all their members naming them', () => {
    const sets: Record<string, number> = { '1990-0060': 5, '1990-0062': 4, '1997-0016': 2, '1985-0061': 2, '1990-0061': 2, '1997-0037': 2, '2017-0095': 3 };
    for (const [base, size] of Object.entries(sets)) {
      const koepel = `${base}_0-${size}`;
      expect(objects.has(koepel)).toBe(true);
      expect(object(koepel).partOfSet).toBeUndefined();
      for (let x = 1; x <= size; x++) expect(object(`${base}_${x}-${size}`).partOfSet).toBe(koepel);
    }
    for (const n of ['2016-0010_1-2', '2022-0058_1-2', '1996-0016_1-2']) expect(objects.has(n)).toBe(true);
  });

  it('contains Memphis, pepervat and Kleureyck with their real identifiers', () => {
    const memphis = agents.get('DMG-A-00162');
    expect(memphis?.name).toBe('Memphis');
    expect(memphis?.registrarKind).toBe('institution');
    expect(memphis?.sameAs).toEqual(['https://stad.gent/id/agent/530000534', 'http://vocab.getty.edu/ulan/500125093', 'https://www.wikidata.org/entity/Q1273221']);
    expect(demo.objects.some((o) => o.productions.some((p) => p.agent === 'DMG-A-00162'))).toBe(true);
    expect(concepts.get('530000049')?.labels.nl).toBe('pepervat');
    expect(concepts.get('530000049')?.sameAs).toContain('https://stad.gent/id/concept/530000049');
    const kleureyck = exhibitions.get('TE_2020-001');
    expect(kleureyck?.titles.nl).toBe('Kleureyck. Van Eycks kleuren in design');
    expect(kleureyck?.sameAs).toEqual(['https://stad.gent/id/tentoonstelling/530003726']);
  });
});

describe('object states', () => {
  it('has merged, renumbered and withdrawn objects that resolve to a current public object', () => {
    for (const kind of ['merged', 'renumbered', 'withdrawn']) {
      const redirecting = demo.objects.filter((o) => o.state.kind === kind);
      expect(redirecting.length).toBeGreaterThanOrEqual(2);
      for (const o of redirecting) {
        const into = 'into' in o.state ? o.state.into : '';
        expect(into).not.toBe(o.objectNumber);
        expect(isServed(into)).toBe(true);
      }
    }
    expect(object('2000-0001').state).toEqual({ kind: 'merged', into: '1987-1105' });
  });

  it('has removed, unhealthy and private objects, and private agents', () => {
    expect(object('2000-0004').state).toEqual({ kind: 'removed' });
    expect(object('2000-0005').healthy).toBe(false);
    expect(object('2000-0006').public).toBe(false);
    expect(demo.objects.filter((o) => o.state.kind === 'removed').length).toBeGreaterThanOrEqual(2);
    expect(demo.objects.filter((o) => !o.healthy).length).toBeGreaterThanOrEqual(2);
    expect(demo.objects.filter((o) => !o.public).length).toBeGreaterThanOrEqual(5);
    expect(demo.agents.filter((a) => !a.public).length).toBeGreaterThanOrEqual(2);
  });
});

describe('sets', () => {
  it('has koepelrecords `<prefix>_0-<N>` whose members `<prefix>_<X>-<N>` all exist and name them', () => {
    const koepels = demo.objects.filter((o) => /_0-\d+$/.test(o.objectNumber));
    expect(koepels.length).toBeGreaterThanOrEqual(15);
    for (const k of koepels) {
      const [prefix, size] = k.objectNumber.split(/_0-/) as [string, string];
      const members = demo.objects.filter((o) => o.partOfSet === k.objectNumber);
      expect(members.length).toBe(Number(size));
      for (const m of members) {
        const match = /^(.+)_(\d+)-(\d+)$/.exec(m.objectNumber);
        expect(match?.[1]).toBe(prefix);
        expect(match?.[3]).toBe(size);
      }
    }
    for (const o of demo.objects) if (o.partOfSet) expect(objects.has(o.partOfSet)).toBe(true);
  });

  it('has zero-padded member numbers such as 1998-0024_01-12', () => {
    expect(object('1998-0024_01-12').partOfSet).toBe('1998-0024_0-12');
    expect(object('1998-0024_12-12').partOfSet).toBe('1998-0024_0-12');
  });
});

describe('dates', () => {
  it('strips the EDTF markers ~ ? % from begin and end, and has each marker', () => {
    const labels = demo.objects.flatMap(dates);
    for (const d of labels) {
      const [begin, end] = stripped(d.label);
      expect([d.begin, d.end]).toEqual([begin, end]);
      expect(d.begin).toBeGreaterThanOrEqual(1600);
      expect(d.end).toBeLessThanOrEqual(2025);
    }
    for (const marker of ['~', '?', '%']) expect(labels.some((d) => d.label.includes(marker))).toBe(true);
    expect(object('2000-0015').productions[0]?.date).toEqual({ label: '1925~', begin: 1925, end: 1925 });
    expect(object('2000-0016').productions[0]?.date).toEqual({ label: '1850?/1900', begin: 1850, end: 1900 });
  });

  it('has undated objects, creation-only objects, several productions, wide and single-year spans', () => {
    const undated = demo.objects.filter((o) => dates(o).length === 0);
    const creationOnly = demo.objects.filter((o) => o.productions.length === 0 && o.creations.some((c) => c.date));
    const several = demo.objects.filter((o) => o.productions.length >= 2);
    const wide = demo.objects.filter((o) => dates(o).some((d) => d.end - d.begin >= 50));
    const single = demo.objects.filter((o) => dates(o).some((d) => /^\d{4}$/.test(d.label)));
    for (const found of [undated, creationOnly, several, wide, single]) expect(found.length).toBeGreaterThanOrEqual(5);
    expect(dates(object('2000-0010'))).toEqual([]);
    expect(object('2000-0011').productions).toEqual([]);
    expect(object('2000-0012').productions.length).toBe(3);
    expect(object('2000-0013').productions[0]?.date).toEqual({ label: '1850/1950', begin: 1850, end: 1950 });
  });
});

describe('physical description', () => {
  it('has named parts with materials and dimensions', () => {
    const withParts = demo.objects.filter((o) => o.parts.length > 0);
    expect(withParts.length).toBeGreaterThanOrEqual(10);
    expect(object('2000-0020').parts.length).toBeGreaterThanOrEqual(2);
    for (const part of object('2000-0020').parts) {
      expect(part.materials.length).toBeGreaterThan(0);
      expect(part.dimensions.length).toBeGreaterThan(0);
    }
  });

  it('records dimensions in cm mostly, and in mm and m now and then', () => {
    const units = demo.objects.flatMap((o) => o.dimensions.map((d) => d.unit));
    expect(units.filter((u) => u === 'cm').length).toBeGreaterThan(units.length * 0.8);
    expect(object('2000-0024').dimensions.every((d) => d.unit === 'mm')).toBe(true);
    expect(object('2000-0025').dimensions.every((d) => d.unit === 'm')).toBe(true);
    expect(units.filter((u) => u === 'mm').length).toBeGreaterThan(5);
  });

  it('has every acquisition method label, with years and places', () => {
    const methods = new Set(demo.objects.map((o) => o.acquisition?.method));
    for (const m of ['aankoop', 'schenking', 'bruikleen', 'legaat', 'oningeschreven gevonden', 'onbekend']) expect(methods.has(m)).toBe(true);
    expect(demo.objects.some((o) => o.acquisition?.year !== undefined && o.acquisition.place !== undefined)).toBe(true);
  });
});

describe('languages', () => {
  it('has titles in Dutch only, Dutch and English, all three, and without Dutch', () => {
    const keys = (o: ObjectRecord): string => Object.keys(o.titles).join('+');
    const combos = new Set(demo.objects.map(keys));
    for (const combo of ['nl', 'nl+en', 'nl+fr+en']) expect(combos.has(combo)).toBe(true);
    expect(demo.objects.filter((o) => o.titles.nl === undefined && (o.titles.fr ?? o.titles.en)).length).toBeGreaterThanOrEqual(5);
    expect(keys(object('2000-0033'))).toBe('fr');
    expect(keys(object('2000-0034'))).toBe('en');
  });

  it('has descriptions missing in some languages and absent on some objects', () => {
    expect(demo.objects.some((o) => Object.keys(o.descriptions).length === 0)).toBe(true);
    expect(demo.objects.some((o) => o.descriptions.nl !== undefined && o.descriptions.fr === undefined)).toBe(true);
    expect(demo.objects.some((o) => o.descriptions.fr !== undefined && o.descriptions.en !== undefined)).toBe(true);
  });
});

describe('media and images', () => {
  it('gives a manifest exactly to objects with images, at <iiifBase>/iiif/manifest/<objectNumber>', () => {
    for (const o of demo.objects) {
      if (o.images.length > 0) expect(o.media.manifest).toBe(`http://localhost:3000/iiif/manifest/${o.objectNumber}`);
      else expect(o.media.manifest).toBeUndefined();
    }
    expect(object('2000-0021').images).toEqual([]);
  });

  it('points every image at an id of images.jsonl, with attribution and a rights statement', () => {
    const rights = new Set<string>();
    for (const o of demo.objects) {
      for (const image of o.images) {
        expect(image.iiifBase).toMatch(/^http:\/\/localhost:3000\/iiif\/3\/[A-Za-z0-9._-]+$/);
        expect(imageStatus.has(imageId(image.iiifBase))).toBe(true);
        expect(image.attribution).toMatch(/^© Design Museum Gent, foto: /);
        rights.add(image.rights);
      }
    }
    expect([...rights].sort()).toEqual(['http://rightsstatements.org/vocab/InC/1.0/', 'https://creativecommons.org/publicdomain/zero/1.0/']);
  });

  it('has objects whose images all fail, and objects mixing good, 404 and 403 images', () => {
    const statuses = (o: ObjectRecord): string[] => o.images.map((i) => imageStatus.get(imageId(i.iiifBase)) ?? '?');
    const allBad = demo.objects.filter((o) => o.images.length > 0 && statuses(o).every((s) => s !== 'ok'));
    expect(allBad.length).toBeGreaterThanOrEqual(5);
    expect(new Set(statuses(object('2000-0022')))).toEqual(new Set(['missing', 'restricted']));
    expect(object('2000-0022').media.manifest).toBeDefined();
    expect(statuses(object('2000-0023'))).toEqual(['ok', 'missing', 'ok', 'restricted']);
    expect(demo.objects.filter((o) => new Set(statuses(o)).size >= 2).length).toBeGreaterThanOrEqual(10);
  });

  it('lists a few hundred images with every shape, light main backgrounds and every status', () => {
    const counts = new Map<string, number>();
    for (const i of demo.images) counts.set(i.status, (counts.get(i.status) ?? 0) + 1);
    expect(counts.get('missing')).toBeGreaterThanOrEqual(5);
    expect(counts.get('restricted')).toBeGreaterThanOrEqual(5);
    expect(counts.get('ok')).toBeGreaterThan(200);
    for (const i of demo.images) {
      const [r, g, b] = [1, 3, 5].map((k) => Number.parseInt(i.background.slice(k, k + 2), 16));
      expect(0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (b as number)).toBeGreaterThan(200);
    }
    for (const shape of SHAPES) expect(demo.images.some((i) => i.shape === shape && i.status === 'ok')).toBe(true);
  });

  it('shows every image case among the answered images, the fixed case images as the first image of their anchors', () => {
    const ok = demo.images.filter((i) => i.status === 'ok');
    for (const c of IMAGE_CASES) expect(ok.filter((i) => imageCases(i).includes(c)).length).toBeGreaterThanOrEqual(5);
    const byId = new Map(demo.images.map((i) => [i.id, i]));
    for (const key of ['3057', '0559', '1988-0028', '1987-0013', '1999-0081', '2017-0308', '2022-0016', '2024-0006', '1980-0205', '2017-0448', '2004-0050']) {
      const first = object(key).images[0];
      expect(first).toBeDefined();
      const image = byId.get(imageId(first?.iiifBase ?? ''));
      const fixed = FIXED_IMAGES.find((f) => f.key === key);
      expect([image?.status, image?.shape, image?.colors, image?.backdrop, image?.pattern]).toEqual(['ok', fixed?.shape, fixed?.colors, fixed?.backdrop, fixed?.pattern]);
    }
  });

  it('has videos and audios with titles and years, creative projects, and objects on display', () => {
    expect(object('2000-0040').media.videos[0]?.year).toBeDefined();
    expect(object('2000-0041').media.audios[0]?.title).toBeTruthy();
    expect(object('2000-0042').creativeProjects.length).toBe(1);
    expect(demo.objects.filter((o) => o.media.videos.length > 0).length).toBeGreaterThanOrEqual(5);
    expect(demo.objects.filter((o) => o.onDisplay).length).toBeGreaterThanOrEqual(10);
  });
});

describe('agents', () => {
  it('has all three classification forms: registrar kind, knowledge-base kind only, neither', () => {
    const has = (f: (a: AgentRecord) => boolean): boolean => demo.agents.some(f);
    expect(has((a) => a.registrarKind === 'person')).toBe(true);
    expect(has((a) => a.registrarKind === 'institution')).toBe(true);
    expect(has((a) => a.registrarKind === undefined && a.knowledgeBaseKind === 'human')).toBe(true);
    expect(has((a) => a.registrarKind === undefined && a.knowledgeBaseKind === 'organisation')).toBe(true);
    expect(has((a) => a.registrarKind === undefined && a.knowledgeBaseKind === undefined)).toBe(true);
  });

  it('writes every relation type at least once, each to an existing agent', () => {
    const types = new Set(demo.agents.flatMap((a) => a.relations.map((r) => r.type)));
    for (const t of RELATION_TYPES) expect(types.has(t)).toBe(true);
    for (const a of demo.agents) for (const r of a.relations) expect(agents.has(r.agent)).toBe(true);
  });

  it('has persons with gender, EU citizenship, life dates, licensed biographies and thumbnails; organisations with founding', () => {
    const codes = new Set(demo.agents.map((a) => a.citizenship?.code));
    for (const c of ['BEL', 'NLD', 'FRA', 'ITA', 'DEU', 'DNK']) expect(codes.has(c)).toBe(true);
    expect(demo.agents.find((a) => a.citizenship?.code === 'BEL')?.citizenship?.labels).toEqual({ nl: 'België', en: 'Belgium', fr: 'Belgique' });
    expect(demo.agents.some((a) => a.gender === 'FEMALE') && demo.agents.some((a) => a.gender === 'MALE')).toBe(true);
    const bios = demo.agents.flatMap((a) => a.biographies);
    expect(new Set(bios.map((b) => b.lang))).toEqual(new Set(['nl', 'en', 'fr']));
    for (const b of bios) {
      expect(b.source).toMatch(/^https:\/\/(nl|en|fr)\.wikipedia\.org\/wiki\//);
      expect(b.licence).toBe('https://creativecommons.org/licenses/by-sa/4.0/');
    }
    expect(demo.agents.some((a) => a.thumbnail !== undefined)).toBe(true);
    expect(demo.agents.some((a) => a.registrarKind === 'institution' && a.birth?.place !== undefined && a.death !== undefined)).toBe(true);
    expect(demo.agents.some((a) => a.birth !== undefined && a.death !== undefined && a.birth.year < a.death.year && a.gender !== undefined)).toBe(true);
  });

  it('has objects naming only existing public agents', () => {
    for (const o of demo.objects) for (const e of [...o.productions, ...o.creations]) if (e.agent) expect(agents.get(e.agent)?.public).toBe(true);
  });
});

describe('exhibitions', () => {
  it('has pids TE_<year>-<serial>, posters and views on some, curators, publications and media', () => {
    for (const e of demo.exhibitions) expect(e.pid).toMatch(/^TE_\d{4}-\d{3}$/);
    const some = (f: (e: ExhibitionRecord) => boolean): number => demo.exhibitions.filter(f).length;
    expect(some((e) => e.poster !== undefined)).toBeGreaterThan(0);
    expect(some((e) => e.poster === undefined)).toBeGreaterThan(0);
    expect(some((e) => e.views.length > 0 && e.views.every((v) => v.fileName.endsWith('.jpg')))).toBeGreaterThan(0);
    expect(some((e) => e.views.some((v) => v.width !== undefined))).toBeGreaterThan(0);
    expect(some((e) => e.views.some((v) => v.width === undefined))).toBeGreaterThan(0);
    expect(some((e) => e.curator?.agent !== undefined)).toBeGreaterThan(0);
    expect(some((e) => e.curator !== undefined && e.curator.agent === undefined)).toBeGreaterThan(0);
    expect(some((e) => e.publications.length > 0)).toBeGreaterThan(0);
    expect(some((e) => e.media.length > 0)).toBeGreaterThan(0);
    for (const e of demo.exhibitions) expect(e.begin <= e.end).toBe(true);
  });

  it('lists some object numbers that are not in the collection', () => {
    const unknown = demo.exhibitions.flatMap((e) => e.objects).filter((n) => !objects.has(n));
    expect(unknown.length).toBeGreaterThanOrEqual(2);
  });

  it('agrees with the objects on who showed what', () => {
    for (const o of demo.objects) for (const pid of o.exhibitions) expect(exhibitions.get(pid)?.objects).toContain(o.objectNumber);
    for (const e of demo.exhibitions) {
      if (!e.public) continue;
      for (const n of e.objects) if (objects.has(n)) expect(object(n).exhibitions).toContain(e.pid);
    }
    expect(object('1987-1105').exhibitions).toContain('TE_2020-001');
  });
});

describe('concepts', () => {
  it('has a hierarchy at least four levels deep, with internal and external broader terms', () => {
    const depth = (pid: string, seen = new Set<string>()): number => {
      const c = concepts.get(pid);
      if (!c || seen.has(pid)) return 0;
      seen.add(pid);
      const internal = c.broader.filter((b): b is string => typeof b === 'string');
      return 1 + Math.max(0, ...internal.map((b) => depth(b, seen)));
    };
    expect(Math.max(...demo.concepts.map((c) => depth(c.pid)))).toBeGreaterThanOrEqual(4);
    const folding = demo.concepts.find((c) => c.labels.nl === 'klapstoel');
    expect(depth(folding?.pid ?? '')).toBe(4);
    expect(demo.concepts.some((c) => c.broader.some((b) => typeof b === 'object'))).toBe(true);
    for (const c of demo.concepts) for (const b of c.broader) if (typeof b === 'string') expect(concepts.has(b)).toBe(true);
  });

  it('has Dutch scope notes everywhere, French and English on some, AAT and city datahub sameAs', () => {
    for (const c of demo.concepts) {
      expect(c.scopeNotes.nl).toBeTruthy();
      expect(c.sameAs).toContain(`https://stad.gent/id/concept/${c.pid}`);
      for (const uri of c.sameAs) expect(uri).toMatch(/^(https:\/\/stad\.gent\/id\/concept\/530\d{6}|http:\/\/vocab\.getty\.edu\/aat\/300\d{6})$/);
    }
    expect(demo.concepts.some((c) => c.scopeNotes.fr)).toBe(true);
    expect(demo.concepts.some((c) => c.scopeNotes.en)).toBe(true);
    expect(demo.concepts.some((c) => c.labels.fr === undefined)).toBe(true);
    const aat = demo.concepts.flatMap((c) => c.sameAs.filter((u) => u.includes('getty')));
    expect(new Set(aat).size).toBe(aat.length);
  });

  it('is what types, materials, techniques and sub-collections of objects refer to', () => {
    for (const o of demo.objects) {
      const refs = [...o.types, ...o.materials, ...o.subCollections, ...o.productions.flatMap((p) => p.techniques), ...o.parts.flatMap((p) => p.materials)];
      for (const pid of refs) expect(concepts.has(pid)).toBe(true);
    }
    expect(demo.objects.some((o) => o.subCollections.length > 0)).toBe(true);
  });
});

describe('identifiers and timestamps', () => {
  it('uses the city datahub URI patterns for objects and exhibitions', () => {
    for (const o of demo.objects) for (const uri of o.sameAs) expect(uri).toMatch(/^https:\/\/stad\.gent\/id\/mensgemaaktobject\/dmg\/530\d{6}$/);
    for (const e of demo.exhibitions) for (const uri of e.sameAs) expect(uri).toMatch(/^https:\/\/stad\.gent\/id\/tentoonstelling\/530\d{6}$/);
  });

  it('spreads modified dates over recent years and harvests in March 2026 at +01:00', () => {
    const all = [...demo.objects, ...demo.agents, ...demo.exhibitions, ...demo.concepts];
    expect(new Set(all.map((r) => r.modified.slice(0, 4))).size).toBeGreaterThanOrEqual(5);
    for (const r of all) {
      expect(r.harvestedAt).toMatch(/^2026-03-0\dT\d{2}:\d{2}:\d{2}\+01:00$/);
      expect(r.modified < r.harvestedAt.slice(0, 10)).toBe(true);
    }
  });
});

describe('scaling', () => {
  it('has more of each case in a larger collection', () => {
    const big = generateCollection({ ...DEMO, objects: 3000 });
    const tally = (c: GeneratedCollection): number[] => [
      c.objects.filter((o) => o.state.kind === 'merged').length,
      c.objects.filter((o) => /_0-\d+$/.test(o.objectNumber)).length,
      c.objects.filter((o) => !o.public).length,
      c.objects.filter((o) => o.parts.length > 0).length,
      c.objects.filter((o) => o.images.length === 0).length,
      c.concepts.length,
      c.agents.length,
      c.exhibitions.length,
    ];
    const small = tally(demo);
    tally(big).forEach((n, i) => expect(n).toBeGreaterThan(small[i] as number));
  });
});

describe('collections past 300,000 objects', () => {
  it('keeps the kinds\' stad.gent ids apart up to MAX_OBJECTS, and the concepts at 150,000', () => {
    const sizes = collectionSizes(MAX_OBJECTS);
    expect(sizes).toMatchObject({ objects: 1_000_000, agents: 333_333, exhibitions: 50_000, concepts: 150_000 });
    // Each kind's ids as intervals [first, last]: concepts below 530,300,000 (the thesaurus' own pid range), the
    // objects' from 530,500,000, the agents' and exhibitions' from their blocks.
    const span = (block: typeof AGENT_IDS, count: number): [number, number][] =>
      count <= block.size ? [[block.start, block.start + count - 1]] : [[block.start, block.start + block.size - 1], [block.overflow, idInBlock(block, count - 1)]];
    const intervals: [number, number][] = [[530_000_000, 530_299_999], [530_500_000, 530_500_000 + sizes.objects - 1], ...span(AGENT_IDS, sizes.agents), ...span(EXHIBITION_IDS, sizes.exhibitions)];
    intervals.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < intervals.length; i++) expect(intervals[i]![0]).toBeGreaterThan(intervals[i - 1]![1]);
    // Up to 300,000 objects nothing moves: every agent and exhibition id is in its first block.
    const old = collectionSizes(300_000);
    expect(old.concepts).toBe(150_000);
    expect(idInBlock(AGENT_IDS, old.agents - 1)).toBe(AGENT_IDS.start + old.agents - 1);
    expect(idInBlock(AGENT_IDS, AGENT_IDS.size)).toBe(AGENT_IDS.overflow);
  });
});
