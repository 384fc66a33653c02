/**
 * `harvest --ldes` of Ghent's event streams (docs/ldes-harvest.md, "From Ghent's streams"): a local server serves
 * the real members of test/fixtures/ldes/coghent as Ghent's server serves them (objects, exhibitions, agents,
 * thesaurus); the real command, as its own process, follows the four streams, maps the members to a source
 * export and harvests it. Expected values are read off the fixture's JSON (the members as Ghent wrote them), not
 * off the mapping: every object, exhibition, agent and concept member is served with its identifier, title or
 * name and dimensions; the records the harvest writes conform to the SHACL shapes and the JSON to the schemas;
 * what cannot be mapped is reported; a second run reads the mutable pages again and changes nothing.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { Metrics } from '../../src/http/metrics.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { currentGeneration } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { graphNames, graphQuads, harvestToText, parseNQuads } from '../fixtures/source-mini/harvest-fixture.js';
import { serveGhentStreams, type GhentStreams } from '../helpers/ghent-streams.js';
import { memoryLogger } from '../helpers/http-context.js';
import { untilIndexesBuilt } from '../helpers/ready-app.js';
import { validateRecordGraph } from '../helpers/shacl.js';
import { tempDir } from '../unit/store-fixtures.js';
import { commandLine } from '../helpers/commands.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BASE = 'http://mirror.test';
type Member = Record<string, unknown>;

/** The notation of a member's identifier in an identification system, as the member's JSON holds it. */
function identifier(member: Member, system: string): string | undefined {
  const ids = member['Object.identificator'] as { 'Identificator.identificator': { '@value': string; '@type': string } }[] | undefined;
  return ids?.find((i) => i['Identificator.identificator']['@type'].endsWith(`/${system}`))?.['Identificator.identificator']['@value'];
}
const typeOf = (m: Member): string => String(m['@type']);

describe("harvest --ldes: Ghent's streams become records", () => {
  let streams: GhentStreams;
  let dataDir: string;
  let removeData: () => Promise<void>;
  let store: StoreManager | undefined;
  let app: Express;
  let firstRun: string;
  const schema = (name: string): ((body: unknown) => boolean) & { errors?: unknown } => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    return ajv.compile(JSON.parse(readFileSync(path.join(ROOT, 'schemas', `${name}.schema.json`), 'utf8')) as object);
  };

  /** `npm run harvest -- --ldes …` of the four streams into `dir`; its standard error. */
  const runHarvest = async (dir: string): Promise<string> => {
    const command = commandLine('harvest', [...Object.values(streams.urls).flatMap((url) => ['--ldes', url]), '--pages-per-second', '200', '--no-index']);
    const { stderr } = await promisify(execFile)(command.file, command.args, {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dir, BASE_URL: BASE, LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
      maxBuffer: 16 << 20,
    });
    return stderr;
  };

  /** Harvests into the test's DATA_DIR and serves the result (a new store, as a restart would). */
  const harvest = async (): Promise<string> => {
    const stderr = await runHarvest(dataDir);
    await store?.close();
    store = new StoreManager({ includeNonPublic: true });
    await store.start((await currentGeneration(dataDir))?.dir as string);
    const config = loadConfig({ BASE_URL: BASE, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const ctx: AppContext = { config, iris: new Iris(BASE), store, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    app = createApp(ctx);
    await untilIndexesBuilt(ctx);
    return stderr;
  };

  beforeAll(async () => {
    streams = await serveGhentStreams();
    ({ dir: dataDir, remove: removeData } = await tempDir('ghent-harvest-'));
    firstRun = await harvest();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await streams.close();
    await removeData();
  });

  const members = (type: string): Member[] => streams.members.filter((m) => typeOf(m) === type);

  it('serves every object member under its object number, with its title and dimensions as Ghent wrote them', async () => {
    const objects = members('MensgemaaktObject');
    expect(objects.length).toBe(4);
    const valid = schema('object');
    for (const member of objects) {
      const number = identifier(member, 'objectnummer') as string;
      const res = await request(app).get(`/v2/id/object/${number}`).expect(200);
      expect([number, valid(res.body)]).toEqual([number, true]);
      const text = JSON.stringify(res.body);
      expect(text).toContain(JSON.stringify((member['MensgemaaktObject.titel'] as { '@value': string })['@value']));
      // Each dimension's value, which only survives as RDF through the page's base (docs/ldes-harvest.md).
      for (const d of member['MensgemaaktObject.dimensie'] as { 'Dimensie.waarde': string; 'Dimensie.type': string }[]) {
        expect([number, d['Dimensie.type'], text.includes(`"crm:P90_has_value":${Number(d['Dimensie.waarde'])}`)]).toEqual([number, d['Dimensie.type'], true]);
      }
      expect(res.body['owl:sameAs'] ?? res.body['https://www.w3.org/2002/07/owl#sameAs']).toBeDefined();
      expect(text).toContain(String(member['dcterms:isVersionOf']));
    }
  });

  it('serves the exhibitions under their reference numbers, with title and dates from the member', async () => {
    const exhibitions = members('Activiteit');
    expect(exhibitions.length).toBe(2);
    const valid = schema('exhibition');
    for (const member of exhibitions) {
      const pid = identifier(member, 'referentienummer') as string;
      const res = await request(app).get(`/v2/id/exhibition/${pid}`).expect(200);
      expect([pid, valid(res.body)]).toEqual([pid, true]);
      const title = ((member['cidoc:P1_is_identified_by'] as Member).inhoud as { '@value': string })['@value'];
      const [begin, end] = String((member['Gebeurtenis.tijd'] as { '@value': string })['@value']).split('/');
      const text = JSON.stringify(res.body);
      expect(text).toContain(JSON.stringify(title));
      expect(text).toContain(String(begin));
      expect(text).toContain(String(end));
    }
  });

  it('serves the agents and concepts of the streams, and those the objects only name, from the label they carry', async () => {
    const validAgent = schema('agent');
    for (const member of members('Agent')) {
      const priref = identifier(member, 'priref') as string;
      const res = await request(app).get(`/v2/id/agent/${priref}`).expect(200);
      expect([priref, validAgent(res.body)]).toEqual([priref, true]);
      expect(JSON.stringify(res.body)).toContain(JSON.stringify(member.volledigeNaam));
    }
    const validConcept = schema('concept');
    for (const member of members('skos:Concept')) {
      const priref = identifier(member, 'priref') as string;
      const res = await request(app).get(`/v2/id/concept/${priref}`).expect(200);
      expect([priref, validConcept(res.body)]).toEqual([priref, true]);
      expect(JSON.stringify(res.body)).toContain(JSON.stringify((member['skos:prefLabel'] as { '@value': string })['@value']));
    }
    // 2004-0056 was designed by an agent no stream here describes: a record from the label the object carries.
    const albertine = members('MensgemaaktObject').find((m) => identifier(m, 'objectnummer') === '2004-0056') as Member;
    const creation = ((albertine['Entiteit.wordtNaarVerwezenDoor'] as Member)['ConceptueelDing.creatie'] as Member[])[0] as Member;
    const designer = (creation['Activiteit.uitgevoerdDoor'] as Member).equivalent as { '@id': string; label: { '@value': string } };
    const priref = designer['@id'].split('/').at(-1) as string;
    const agent = await request(app).get(`/v2/id/agent/${priref}`).expect(200);
    expect(JSON.stringify(agent.body)).toContain(JSON.stringify(designer.label['@value']));
    expect(validAgent(agent.body)).toBe(true);
    expect(JSON.stringify((await request(app).get('/v2/id/object/2004-0056').expect(200)).body)).toContain(`${BASE}/v2/id/agent/${priref}`);
  });

  it('writes records that conform to the SHACL shapes', async () => {
    const { publicText } = await harvestToText(path.join(dataDir, 'ldes', 'export'), { baseUrl: BASE, validateImages: false });
    const all = parseNQuads(publicText);
    const records = [...graphNames(all)].filter((g) => g.includes('/v2/id/'));
    const total = members('MensgemaaktObject').length + members('Activiteit').length;
    expect(records.length).toBeGreaterThan(total);
    const failures: string[] = [];
    for (const record of records) {
      const { conforms, lines } = await validateRecordGraph(record, graphQuads(all, record));
      if (!conforms) failures.push(...lines);
    }
    expect(failures).toEqual([]);
  });

  it('says what it left out: the sets whose koepelrecord is not harvested', async () => {
    expect(firstRun).toMatch(/Ghent's members mapped to 4 objects, 2 exhibitions, \d+ agents and \d+ concepts; 0 members left out, \d+ references dropped/);
    const report = JSON.parse(await readFile(path.join(dataDir, 'ldes', 'mapping-report.json'), 'utf8')) as { dropped: { record: string; reason: string }[] };
    // 2008-0038_11-14 is part 11 of a set of 14 (its object number says so) whose head is not in the stream.
    const part = members('MensgemaaktObject').find((m) => identifier(m, 'objectnummer') === '2008-0038_11-14') as Member;
    const head = (part['MensgemaaktObject.maaktDeelUitVan'] as { '@id': string; '@type': string }[]).find((w) => w['@type'] === 'GecureerdeCollectie') as { '@id': string };
    expect(report.dropped).toContainEqual({ record: '2008-0038_11-14', reason: `set ${head['@id']}: its koepelrecord is not among the objects harvested` });
  });

  it('changes nothing when run again on unchanged streams', async () => {
    const before = await currentGeneration(dataDir);
    const changesBefore = (await request(app).get('/v2/changes').expect(200)).body as { totalItems: number };
    expect(changesBefore.totalItems).toBeGreaterThan(0);
    const second = await harvest();
    // The latest objects page expires: read again, its members journalled again; the older one is immutable.
    expect(second).toMatch(/objecten: 1 pages read, 2 members; 1 pages complete, never read again/);
    expect((await currentGeneration(dataDir))?.id).not.toBe(before?.id);
    // The change feed lists no creation, update or deletion for the second harvest.
    const changesAfter = (await request(app).get('/v2/changes').expect(200)).body as { totalItems: number };
    expect(changesAfter.totalItems).toBe(changesBefore.totalItems);
  }, 120_000);

  it('stops on a page it cannot read, naming it, serving nothing new; the next run completes', async () => {
    const { dir, remove } = await tempDir('ghent-resume-');
    try {
      streams.fail = (url) => (url.includes('generatedAtTime=2023-02-13T16:19:43.573Z') ? 404 : undefined);
      const failed = (await runHarvest(dir).then(
        () => undefined,
        (err: unknown) => err,
      )) as { code: number; stderr: string } | undefined;
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(`${streams.urls.objects}?generatedAtTime=2023-02-13T16:19:43.573Z`);
      expect(await currentGeneration(dir)).toBeUndefined();
      // What was read is kept; the page that failed is still to read.
      const state = JSON.parse(await readFile(path.join(dir, 'ldes', (await readdir(path.join(dir, 'ldes')))[0] as string, 'state.json'), 'utf8')) as { pending: string[] };
      expect(state.pending).toEqual([`${streams.urls.objects}?generatedAtTime=2023-02-13T16:19:43.573Z`]);
      streams.fail = undefined;
      const resumed = await runHarvest(dir);
      expect(resumed).toMatch(/objecten: 2 pages read, 4 members; 1 pages complete/);
      expect(resumed).toMatch(/Ghent's members mapped to 4 objects, 2 exhibitions/);
      expect(await currentGeneration(dir)).toBeDefined();
    } finally {
      streams.fail = undefined;
      await remove();
    }
  }, 120_000);
});
