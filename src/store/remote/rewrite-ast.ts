/**
 * What the remote store's query rewrite (graph-view.ts) reads off a parsed query (sparqljs): the variables
 * of a pattern (all of them, those in scope, those bound for certain, those a pattern can bind), EXISTS in an
 * expression, and the copies it makes of a pattern (variables renamed, every inner group transformed).
 */
import type sparqljs from 'sparqljs';
import type { Expression, IriTerm, Pattern, VariableTerm } from 'sparqljs';
import { DataFactory } from 'n3';
import { walkAst } from '../../queries/sparql-ast.js';

const { variable } = DataFactory;

export const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** The operation `operator(args…)` (an operator, or a built-in function of SPARQL's by its lower-case name). */
export const call = (operator: string, ...args: Expression[]): sparqljs.OperationExpression => ({ type: 'operation', operator, args });

/** A copy of `node` (patterns, expressions) with its variables renamed by `names`, VALUES keys included. */
export function renameVariables(node: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => renameVariables(item, names));
  if (typeof node !== 'object' || node === null) return node;
  if ('termType' in node) {
    const term = node as { termType: string; value: string };
    return term.termType === 'Variable' && names.has(term.value) ? variable(names.get(term.value) as string) : node;
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key.startsWith('?') && names.has(key.slice(1)) ? `?${names.get(key.slice(1))}` : key, renameVariables(value, names)]),
  );
}

/** `pattern` with `transform` applied to every group of patterns inside it (EXISTS and subqueries included). */
export function withinGroups(pattern: Pattern, transform: (patterns: Pattern[]) => Pattern[]): Pattern {
  const expression = (e: Expression): Expression => {
    if (typeof e !== 'object' || e === null || Array.isArray(e) || 'termType' in e || e.type !== 'operation') return e;
    const op = e as sparqljs.OperationExpression;
    if (op.operator === 'exists' || op.operator === 'notexists') return { ...op, args: op.args.map((a) => withinGroups(a as Pattern, transform)) };
    return { ...op, args: op.args.map((a) => expression(a as Expression)) };
  };
  switch (pattern.type) {
    case 'group':
    case 'optional':
    case 'minus':
    case 'graph':
      return { ...pattern, patterns: transform(pattern.patterns) };
    case 'union':
      return { ...pattern, patterns: pattern.patterns.map((branch) => withinGroups(branch, transform)) };
    case 'filter':
      return { ...pattern, expression: expression(pattern.expression) };
    case 'bind':
      return { ...pattern, expression: expression(pattern.expression) };
    case 'query': {
      const sub = pattern as sparqljs.SelectQuery;
      return { ...sub, where: transform(sub.where ?? []) } as Pattern;
    }
    default:
      return pattern;
  }
}

/**
 * The in-scope variables of a group (SPARQL 1.1 §18.2.1), in the order they first occur: what `SELECT *`
 * projects. FILTER, MINUS and EXISTS bind nothing; a subquery binds what it projects.
 */
export function inScope(patterns: readonly Pattern[], into: string[] = []): string[] {
  const add = (name: string): void => {
    if (!into.includes(name)) into.push(name);
  };
  for (const p of patterns) {
    switch (p.type) {
      case 'bgp':
        for (const name of variablesIn(p.triples)) add(name);
        break;
      case 'graph':
        if (p.name.termType === 'Variable') add(p.name.value);
        inScope(p.patterns, into);
        break;
      case 'group':
      case 'optional':
        inScope(p.patterns, into);
        break;
      case 'union':
        for (const branch of p.patterns) inScope([branch], into);
        break;
      case 'bind':
        add(p.variable.value);
        break;
      case 'values':
        for (const row of p.values) for (const key of Object.keys(row)) add(key.slice(1));
        break;
      case 'query': {
        const sub = p as sparqljs.SelectQuery;
        for (const v of sub.variables as { termType?: string; value?: string; variable?: VariableTerm }[]) {
          if (v.termType === 'Wildcard') inScope(sub.where ?? [], into);
          else if (v.termType === 'Variable') add(v.value as string);
          else if (v.variable) add(v.variable.value);
        }
        break;
      }
      default:
        break;
    }
  }
  return into;
}

/** Variables a pattern can bind: those of its triples, graph names, VALUES and BIND targets (not of its expressions). */
export function patternVariables(pattern: Pattern): Set<string> {
  const names = new Set<string>();
  walkAst(pattern, (n) => {
    if (n.type === 'filter') return false;
    if (n.type === 'bind') {
      names.add((n.variable as VariableTerm).value);
      return false;
    }
    if (n.termType === 'Variable' && typeof n.value === 'string') names.add(n.value);
    for (const key of Object.keys(n)) if (key.startsWith('?')) names.add(key.slice(1));
    return undefined;
  });
  return names;
}

/** Occurrences of each variable in `node` (an AST or part of one), VALUES rows (which name theirs in keys) included. */
export function countVariables(node: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (name: string): void => void counts.set(name, (counts.get(name) ?? 0) + 1);
  walkAst(node, (n) => {
    if (n.termType === 'Variable' && typeof n.value === 'string') {
      add(n.value);
      return false;
    }
    for (const key of Object.keys(n)) if (key.startsWith('?')) add(key.slice(1));
    return undefined;
  });
  return counts;
}

/** Names of every variable anywhere in `node`. */
export const variablesIn = (node: unknown): Set<string> => new Set(countVariables(node).keys());

/** The variable `(expression AS ?v)` or `BIND(expression AS ?v)` binds, when `n` is one of those. */
export function boundExpression(n: Readonly<Record<string, unknown>>): { expression: { type?: string; operator?: string }; variable: string } | undefined {
  const variable = n.variable as { termType?: string; value?: string } | undefined;
  if (n.expression === undefined || variable?.termType !== 'Variable' || typeof variable.value !== 'string') return undefined;
  return { expression: n.expression as { type?: string; operator?: string }, variable: variable.value };
}

/** True when an expression holds an EXISTS or NOT EXISTS. */
export const hasExists = (node: unknown): boolean => walkAst(node, (n) => (n.type === 'operation' && (n.operator === 'exists' || n.operator === 'notexists')) || undefined);

/** Variables an element of a group binds in every solution it gives (none for OPTIONAL, MINUS, FILTER). */
export function boundBy(pattern: Pattern): string[] {
  switch (pattern.type) {
    case 'bgp':
      return [...variablesIn(pattern.triples)];
    case 'values':
      return Object.keys(pattern.values[0] ?? {})
        .filter((key) => pattern.values.every((row) => row[key] !== undefined))
        .map((key) => key.slice(1));
    case 'bind':
      return [pattern.variable.value];
    case 'graph':
      return [...(pattern.name.termType === 'Variable' ? [pattern.name.value] : []), ...pattern.patterns.flatMap(boundBy)];
    case 'group':
      return pattern.patterns.flatMap(boundBy);
    case 'union': {
      // What every branch binds.
      const [first, ...rest] = pattern.patterns.map((branch) => new Set(boundBy(branch)));
      return [...(first ?? [])].filter((name) => rest.every((branch) => branch.has(name)));
    }
    case 'query':
      return (pattern.variables as { termType?: string; value?: string; variable?: VariableTerm }[]).flatMap((v) => (v.termType === 'Variable' ? [v.value as string] : v.variable ? [v.variable.value] : []));
    default:
      return [];
  }
}

/** Variables used as a graph name outside subqueries (EXISTS included). */
export function graphVariablesOutsideSubqueries(patterns: readonly Pattern[]): Set<string> {
  const names = new Set<string>();
  walkAst(patterns, (n) => {
    if (n.type === 'query') return false;
    const name = n.name as VariableTerm | IriTerm | undefined;
    if (n.type === 'graph' && name?.termType === 'Variable') names.add(name.value);
    return undefined;
  });
  return names;
}
