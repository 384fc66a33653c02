/**
 * ontology/shapes.ttl applied to one record graph (docs/graph-model.md): the kind's shape is targeted at the
 * record, the CIDOC-CRM subset supplies the class hierarchy. Each result is a line naming the node, the
 * property and what is wrong.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import SHACLValidator from 'rdf-validate-shacl';
import { DataFactory, Parser, Store, type Quad } from 'n3';
import type { ValidationResult } from 'rdf-validate-shacl/src/validation-report.js';

const { namedNode, quad } = DataFactory;
const ONTOLOGY = fileURLToPath(new URL('../../ontology/', import.meta.url));
const SH = 'http://www.w3.org/ns/shacl#';
const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const KIND_SHAPE: Record<string, string> = {
  object: 'ObjectRecordShape',
  agent: 'AgentRecordShape',
  exhibition: 'ExhibitionRecordShape',
  concept: 'ConceptRecordShape',
};

let loaded: Promise<{ shapes: Quad[]; ontology: Quad[] }> | undefined;
const turtle = async (file: string): Promise<Quad[]> => new Parser({ format: 'text/turtle' }).parse(await readFile(`${ONTOLOGY}${file}`, 'utf8'));

/** The shapes and the CIDOC-CRM subset (ontology/), read once. */
export function shapesAndOntology(): Promise<{ shapes: Quad[]; ontology: Quad[] }> {
  loaded ??= Promise.all([turtle('shapes.ttl'), turtle('crm-subset.ttl')]).then(([shapes, ontology]) => ({ shapes, ontology }));
  return loaded;
}

/** Validates one record graph with the shapes, targeting the kind shape at the record (see shapes.ttl). */
export async function validateRecordGraph(record: string, graph: Quad[]): Promise<{ conforms: boolean; lines: string[] }> {
  const { shapes, ontology } = await shapesAndOntology();
  const kind = /\/v2\/id\/(object|agent|exhibition|concept)\//.exec(record)?.[1];
  if (kind === undefined) throw new Error(`not a record IRI: ${record}`);
  const target = quad(namedNode(`urn:x-museum-ld:shapes#${KIND_SHAPE[kind]}`), namedNode(`${SH}targetNode`), namedNode(record));
  const validator = new SHACLValidator(new Store([...shapes, target]));
  const report = await validator.validate(new Store([...graph, ...ontology]));
  return { conforms: report.conforms, lines: report.results.flatMap((r) => describeResult(r, '')) };
}

/** One line per result and nested detail: `<focus> <path>: <constraint> <message>`. */
function describeResult(result: ValidationResult, indent: string): string[] {
  const path = result.path?.value ?? '';
  const component = result.sourceConstraintComponent.value.replace(SH, 'sh:');
  const message = result.message.map((m) => m.value).join('; ');
  const line = `${indent}${result.focusNode.value} ${path.replace(CRM, 'crm:')}: ${component} ${message}`;
  return [line, ...result.detail.flatMap((d) => describeResult(d, `${indent}  `))];
}
