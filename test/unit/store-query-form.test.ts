import { answersWithRdf, queryForm } from '../../src/store/query-form.js';

describe('query form', () => {
  it('reads the form after comments, BASE and PREFIX declarations, whatever the case', () => {
    const q = `# a comment with SELECT in it
      BASE <http://a.test/>
      PREFIX crm: <http://www.cidoc-crm.org/cidoc-crm/#not-a-comment>
      prefix : <http://a.test/ns#>
      construct { ?s ?p ?o } WHERE { ?s ?p ?o }`;
    expect(queryForm(q)).toBe('construct');
    expect(queryForm('SELECT * { ?s ?p ?o }')).toBe('select');
    expect(queryForm('ASK{}')).toBe('ask');
    expect(queryForm('DESCRIBE <http://a.test/x>')).toBe('describe');
  });

  it('is undefined for updates and text that is no query', () => {
    expect(queryForm('INSERT DATA { <urn:a> <urn:b> <urn:c> }')).toBeUndefined();
    expect(queryForm('SELECTION')).toBeUndefined();
    expect(queryForm('')).toBeUndefined();
  });

  it('tells the forms that answer with RDF', () => {
    expect(answersWithRdf('construct')).toBe(true);
    expect(answersWithRdf('describe')).toBe(true);
    expect(answersWithRdf('select')).toBe(false);
    expect(answersWithRdf('ask')).toBe(false);
    expect(answersWithRdf(undefined)).toBe(false);
  });
});
