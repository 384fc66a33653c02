/**
 * The service's own queries (the query library) on the remote store, rewritten once per generation rather than on every
 * request (docs/remote-store.md, "Query templates"). A library query is its parsed `.rq` file with the
 * request's values as a VALUES block in front (src/queries/library.ts), and the view rewrite (graph-view.ts)
 * depends on those values in one place only: the column of prefixed graph names it adds beside a VALUES
 * variable that names graphs. So the entry is bound once to a row of placeholder IRIs and rewritten; the
 * rewritten VALUES block tells, column by column, what each request's row puts there (a value as given, the
 * server graph of a value, or a constant of the rewrite). A request then fills that block and writes the
 * rewritten query out: no parse, no rewrite.
 *
 * An entry the template cannot take (a parameter that is not an IRI, a placeholder the rewrite copied
 * anywhere but that block) is rewritten from its text each time, as a client's query is.
 */
import sparqljs from 'sparqljs';
import type { Expression, IriTerm, SparqlQuery, Term, ValuePatternRow, ValuesPattern } from 'sparqljs';
import { DataFactory } from 'n3';
import { withValues, type BoundQuery, type LibraryEntry } from '../../queries/library.js';
import { walkAst } from '../../queries/sparql-ast.js';
import { serverGraphOf, type GraphView } from './generation-graphs.js';
import { rewriteAstForView, type RewriteOptions, type ViewQuery } from './graph-view.js';

const { namedNode } = DataFactory;
const generator = new sparqljs.Generator();
/** Placeholder IRIs: `<SLOT><parameter name>`. */
const SLOT = 'urn:x-museum-ld:slot:';

/** One column of the rewritten VALUES block: a parameter's value, its server graph, or a constant. */
type Column = { variable: string; param: string; graph: boolean } | { variable: string; constant: Term };

/** A `FILTER(?column IN (…))` of the rewrite that lists the graphs of a column of the block (generation-scope.ts). */
interface GraphList {
  args: Expression[];
  column: string;
}

interface Template {
  /** The rewritten query; `block` is inside it, and its rows are swapped in while the query is written out. */
  ast: SparqlQuery;
  block: ValuesPattern;
  columns: Column[];
  /** Lists of the graphs of a column, filled from the same rows. */
  lists: GraphList[];
  view: Omit<ViewQuery, 'text'>;
}

/** The templates of one view of one generation (the store makes a new set when it serves another). */
export class QueryTemplates {
  private readonly templates = new Map<string, Template | null>();
  private readonly graphOf: (iri: string) => string;

  constructor(
    private readonly view: GraphView,
    private readonly options: RewriteOptions,
  ) {
    this.graphOf = serverGraphOf(view);
  }

  /** `query` rewritten to the view from its entry's template; undefined when no template takes the entry. */
  rewrite(query: BoundQuery): ViewQuery | undefined {
    const name = query.entry.name;
    let template = this.templates.get(name);
    if (template === undefined) {
      template = this.build(query.entry);
      this.templates.set(name, template);
    }
    if (template === null) return undefined;
    const rows = query.rows.map((row) => this.fill(template.columns, row));
    const { block, lists } = template;
    const placeholders = block.values;
    const listed = lists.map(({ args }) => args[1]);
    // Written out synchronously with the request's rows in place: no other request sees them.
    block.values = rows;
    for (const { args, column } of lists) args[1] = rows.map((row) => row[column] as IriTerm);
    try {
      return { text: generator.stringify(template.ast), ...template.view };
    } finally {
      block.values = placeholders;
      lists.forEach(({ args }, i) => (args[1] = listed[i] as Expression));
    }
  }

  private fill(columns: readonly Column[], row: ValuePatternRow): ValuePatternRow {
    const out: ValuePatternRow = {};
    for (const column of columns) {
      if ('constant' in column) {
        out[column.variable] = column.constant as ValuePatternRow[string];
        continue;
      }
      const value = row[`?${column.param}`] as IriTerm;
      out[column.variable] = column.graph ? namedNode(this.graphOf(value.value)) : value;
    }
    return out;
  }

  /** The entry bound to placeholders and rewritten, or null when the template cannot stand for its rewrite. */
  private build(entry: LibraryEntry): Template | null {
    if (entry.params.length === 0 || entry.params.some((param) => param.type !== 'iri')) return null;
    const placeholders: ValuePatternRow = Object.fromEntries(entry.params.map((param) => [`?${param.name}`, namedNode(SLOT + param.name)]));
    let rewritten: ReturnType<typeof rewriteAstForView>;
    try {
      rewritten = rewriteAstForView(generator.stringify(withValues(entry.ast, [placeholders])), this.view, this.options);
    } catch {
      // The text path gives the request its error.
      return null;
    }
    const { ast, ...view } = rewritten;
    const blocks: ValuesPattern[] = [];
    walkAst(ast, (node) => {
      if (node.type === 'values' && JSON.stringify(node.values).includes(SLOT)) blocks.push(node as unknown as ValuesPattern);
    });
    const [block] = blocks;
    if (blocks.length !== 1 || block?.values.length !== 1) return null;
    const columns = this.columnsOf(block.values[0] as ValuePatternRow, entry);
    if (columns === null) return null;
    const lists = graphLists(ast, columns);
    // The placeholders are nowhere else in the rewritten query (in another FILTER, say), where no row would reach them.
    const cells = columns.filter((column) => 'param' in column).length + lists.length;
    if (generator.stringify(ast).split(SLOT).length - 1 !== cells) return null;
    return { ast, block, columns, lists, view };
  }

  /** What fills each column of the rewritten placeholder row, or null for a column no row can fill. */
  private columnsOf(row: ValuePatternRow, entry: LibraryEntry): Column[] | null {
    const columns: Column[] = [];
    for (const [variable, term] of Object.entries(row)) {
      const value = term?.termType === 'NamedNode' ? term.value : undefined;
      const param = entry.params.find((p) => value === SLOT + p.name || value === this.graphOf(SLOT + p.name));
      if (param) columns.push({ variable, param: param.name, graph: value !== SLOT + param.name });
      else if (term === undefined || JSON.stringify(term).includes(SLOT)) return null;
      else columns.push({ variable, constant: term });
    }
    return columns;
  }
}

/** The rewrite's lists of a graph column's names (`?column IN (<the placeholder's graph>)`), each filled per request. */
function graphLists(ast: SparqlQuery, columns: readonly Column[]): GraphList[] {
  const graphColumns = new Set(columns.filter((column) => 'param' in column && column.graph).map((column) => column.variable));
  const lists: GraphList[] = [];
  walkAst(ast, (node) => {
    if (node.type !== 'operation' || node.operator !== 'in') return;
    const args = node.args as Expression[];
    const [subject, list] = args;
    const column = subject && 'termType' in subject && subject.termType === 'Variable' ? `?${subject.value}` : undefined;
    if (column === undefined || !graphColumns.has(column) || !Array.isArray(list) || list.length !== 1) return;
    const [only] = list;
    if (only && 'termType' in only && only.termType === 'NamedNode' && only.value.includes(SLOT)) lists.push({ args, column });
  });
  return lists;
}
