/**
 * N-Quads fixtures for the store tests, written by hand in the shape of docs/graph-model.md: one named
 * graph per record (with blank nodes, so isomorphism checks are honest) plus the admin graph.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const BASE = 'http://museum.test';
export const ADMIN_GRAPH = `${BASE}/graph/admin`;
const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const RDFS_LABEL = '<http://www.w3.org/2000/01/rdf-schema#label>';
const RDF_TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const ADMIN = 'urn:x-museum-ld:admin#';

export const objectIri = (n: number): string => `${BASE}/v2/id/object/OBJ-${n}`;
export const agentIri = (n: number): string => `${BASE}/v2/id/agent/DMG-A-${n}`;

/** Quads of one object graph: 6 statements, 2 of them about a blank-node title. */
export function objectGraph(n: number, title = `Object ${n}`): string[] {
  const o = `<${objectIri(n)}>`;
  const g = o;
  const b = `_:title${n}`;
  return [
    `${o} ${RDF_TYPE} <${CRM}E22_Human-Made_Object> ${g} .`,
    `${o} ${RDFS_LABEL} ${JSON.stringify(title)} ${g} .`,
    `${o} <${CRM}P1_is_identified_by> ${b} ${g} .`,
    `${b} ${RDF_TYPE} <${CRM}E41_Appellation> ${g} .`,
    `${b} ${RDFS_LABEL} ${JSON.stringify(title)}@nl ${g} .`,
    `${o} <${CRM}P108i_was_produced_by> <${objectIri(n)}/production/1> ${g} .`,
  ];
}

/** Quads of one agent graph: 2 statements. */
export function agentGraph(n: number): string[] {
  const a = `<${agentIri(n)}>`;
  return [`${a} ${RDF_TYPE} <${CRM}E39_Actor> ${a} .`, `${a} ${RDFS_LABEL} "Agent ${n}" ${a} .`];
}

/** Admin-graph statements for one record. */
export function adminQuads(iri: string, facts: { state?: string; private?: boolean; healthy?: boolean; resolvesTo?: string }): string[] {
  const s = `<${iri}>`;
  const g = `<${ADMIN_GRAPH}>`;
  const xsdBoolean = '<http://www.w3.org/2001/XMLSchema#boolean>';
  const out: string[] = [];
  if (facts.state !== undefined) out.push(`${s} <${ADMIN}state> "${facts.state}" ${g} .`);
  if (facts.resolvesTo !== undefined) out.push(`${s} <${ADMIN}resolvesTo> <${facts.resolvesTo}> ${g} .`);
  if (facts.private !== undefined) out.push(`${s} <${ADMIN}private> "${facts.private}"^^${xsdBoolean} ${g} .`);
  if (facts.healthy !== undefined) out.push(`${s} <${ADMIN}healthy> "${facts.healthy}"^^${xsdBoolean} ${g} .`);
  return out;
}

/**
 * A dataset of `objects` object graphs and `objects / 2` agent graphs. Objects whose number is divisible by
 * 10 are private, by 15 withdrawn (merged into object 1); the admin graph comes last, as a dump writes it.
 */
export function syntheticDataset(objects: number): { lines: string[]; hiddenObjects: number[] } {
  const lines: string[] = [];
  const admin: string[] = [];
  const hiddenObjects: number[] = [];
  for (let n = 1; n <= objects; n++) {
    lines.push(...objectGraph(n));
    if (n % 15 === 0) admin.push(...adminQuads(objectIri(n), { state: 'merged', resolvesTo: objectIri(1) }));
    else if (n % 10 === 0) admin.push(...adminQuads(objectIri(n), { state: 'current', private: true }));
    if (n % 10 === 0 || n % 15 === 0) hiddenObjects.push(n);
  }
  for (let n = 1; n <= Math.floor(objects / 2); n++) lines.push(...agentGraph(n));
  return { lines: [...lines, ...admin], hiddenObjects };
}

/** A fresh temporary folder (DATA_DIR or inputs) and its remover. */
export async function tempDir(prefix = 'store-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes lines as an N-Quads file, gzip when the name ends in .gz. */
export async function writeNQuads(file: string, lines: string[]): Promise<string> {
  const text = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  await writeFile(file, file.endsWith('.gz') ? gzipSync(text) : text);
  return file;
}
