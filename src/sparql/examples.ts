/**
 * Example queries offered in the query editor, one per common research question. They use only the public
 * graph model (docs/graph-model.md) and no deployment IRI, so they run unchanged on every deployment.
 */

export interface ExampleQuery {
  /** Stable id (used in the page and by tests). */
  id: string;
  title: string;
  query: string;
}

const PREFIXES = `PREFIX crm: <http://www.cidoc-crm.org/cidoc-crm/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
PREFIX person: <http://www.w3.org/ns/person#>
`;

export const EXAMPLE_QUERIES: readonly ExampleQuery[] = [
  {
    id: 'objects-per-decade-by-type',
    title: 'Objects per decade of production, by object type',
    query: `${PREFIXES}
# Each object record is its own named graph; the decade comes from the start of its first dated production.
SELECT ?decade ?type (COUNT(DISTINCT ?object) AS ?objects)
WHERE {
  GRAPH ?object {
    ?object a crm:E22_Human-Made_Object ;
      crm:P2_has_type/rdfs:label ?type ;
      crm:P108i_was_produced_by/crm:P4_has_time-span/crm:P82a_begin_of_the_begin ?begin .
  }
  BIND (xsd:integer(FLOOR(xsd:integer(STR(?begin)) / 10)) * 10 AS ?decade)
}
GROUP BY ?decade ?type
ORDER BY ?decade DESC(?objects) ?type
`,
  },
  {
    id: 'designers-by-nationality',
    title: 'Designers by nationality',
    query: `${PREFIXES}
# Designers are the agents who carried out the creation (design) of an object.
SELECT ?nationality (COUNT(DISTINCT ?designer) AS ?designers)
WHERE {
  GRAPH ?object { ?object crm:P94i_was_created_by/crm:P14_carried_out_by ?designer }
  GRAPH ?designer {
    ?designer person:citizenship/rdfs:label ?nationality .
    FILTER (LANG(?nationality) = "en")
  }
}
GROUP BY ?nationality
ORDER BY DESC(?designers) ?nationality
`,
  },
  {
    id: 'exhibitions-of-an-agent',
    title: 'Exhibitions that showed the work of an agent',
    query: `${PREFIXES}
# Change the name to ask about another designer or manufacturer.
SELECT ?exhibition ?title ?start (COUNT(DISTINCT ?object) AS ?objects)
WHERE {
  VALUES ?name { "Philippe Wolfers" }
  GRAPH ?agent { ?agent rdfs:label ?name }
  GRAPH ?object {
    ?object (crm:P94i_was_created_by|crm:P108i_was_produced_by)/crm:P14_carried_out_by ?agent ;
      crm:P12i_was_present_at ?exhibition .
  }
  GRAPH ?exhibition {
    ?exhibition rdfs:label ?title ;
      crm:P4_has_time-span/crm:P82a_begin_of_the_begin ?start .
  }
}
GROUP BY ?exhibition ?title ?start
ORDER BY ?start
`,
  },
  {
    id: 'object-graph',
    title: 'The graph of one object record (CONSTRUCT)',
    query: `${PREFIXES}
CONSTRUCT { ?s ?p ?o }
WHERE {
  {
    SELECT ?object WHERE { GRAPH ?object { ?object a crm:E22_Human-Made_Object ; rdfs:label ?label } }
    ORDER BY ?label
    LIMIT 1
  }
  GRAPH ?object { ?s ?p ?o }
}
`,
  },
];
