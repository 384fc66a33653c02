/**
 * Log redaction by name family and the cut of long text (src/config/redact.ts; docs/operations.md, "Logs"): a
 * secret sent under any spelling of a secret's name (brackets, indexes, case, `-`/`_`, percent-encoding) never
 * reaches a log line, and no text value makes a line longer than LOG_TEXT_MAX plus a short marker.
 */
import fc from 'fast-check';
import { SecretList } from '../../src/config/secret-list.js';
import { cutForLog, isSecretName, LOG_TEXT_MAX, REDACTED, redactLogValue, redactQuery, redactUrl, SECRET_NAMES } from '../../src/config/redact.js';

describe('Secret parameter names', () => {
  it.each([
    'apiKey', 'apiKey[]', 'apiKey[0]', 'apiKey[x][y]', 'APIKEY', 'api-key', 'api_key', 'Api-Key[]', 'x-api-key',
    'key', 'token', 'access_token', 'refresh-token', 'auth', 'Authorization', 'password', 'passwd', 'db_password',
    'secret', 'client_secret', 'user[password]', 'user.password', 'apiKey%5B%5D', 'api%5Fkey', 'api%2Dkey',
    // Control and invisible characters, raw or percent-encoded, dropped or taken as a cut (issue 44).
    'apiKey%00', 'apiKey\u0000', '%00apiKey', 'api%00Key', 'apiKey%0A', 'apiKey%7F', 'apiKey%C2%85', 'apiKey%E2%80%8B',
    'key%00x', 'password%09', 'apiKey[%00]', 'user[pass%00word]', 'apiKey%00%ZZ', '%EF%BD%81piKey',
  ])('treats %s as the name of a secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(['q', 'keys', 'keyword', 'author', 'page', 'itemsPerPage', 'sortBy', 'passage', 'filter[type]', 'monkey'])(
    'treats %s as an ordinary parameter',
    (name) => {
      expect(isSecretName(name)).toBe(false);
    },
  );
});

describe('Query redaction', () => {
  it('replaces the value of every bracketed, indexed and differently spelled key parameter', () => {
    const query = 'apiKey[]=S1&apiKey[0]=S2&apiKey[x][y]=S3&API-KEY=S4&api_key=S5&apiKey%5B%5D=S6&itemsPerPage=2';
    expect(redactQuery(query)).toBe(
      'apiKey[]=[REDACTED]&apiKey[0]=[REDACTED]&apiKey[x][y]=[REDACTED]&API-KEY=[REDACTED]&api_key=[REDACTED]&apiKey%5B%5D=[REDACTED]&itemsPerPage=2',
    );
  });

  it('replaces passwords, secrets, tokens and auth values and keeps a secret-looking value of an ordinary parameter', () => {
    expect(redactQuery('password=a&passwd=b&secret=c&token=d&auth=e&q=password%3Dx&pageNumber=1')).toBe(
      'password=[REDACTED]&passwd=[REDACTED]&secret=[REDACTED]&token=[REDACTED]&auth=[REDACTED]&q=password%3Dx&pageNumber=1',
    );
  });

  it('redacts a key whose name carries a NUL or another control character (GET /v1/...?apiKey%00=secret)', () => {
    expect(redactUrl('/v1/objects?apiKey%00=secret&q=1')).toEqual({ path: '/v1/objects', query: 'apiKey%00=[REDACTED]&q=1' });
    expect(redactQuery('api%00key=secret&x%01apikey=s2&q=1')).toBe('api%00key=[REDACTED]&x%01apikey=[REDACTED]&q=1');
  });

  it('redacts every secret name with control, format or space characters put anywhere in it, raw or percent-encoded', () => {
    const invisible = fc.constantFrom('\u0000', '\u0001', '\t', '\n', '\r', '\u001f', '\u007f', '\u0085', '\u00a0', '\u200b', '\u200e', '\ufeff', '\u2028');
    const spelled = fc
      .tuple(fc.constantFrom(...SECRET_NAMES), fc.array(fc.tuple(fc.nat(), invisible), { maxLength: 4 }), fc.boolean())
      .map(([name, inserts, encoded]) => {
        let text = name;
        for (const [at, c] of inserts) text = `${text.slice(0, at % (text.length + 1))}${c}${text.slice(at % (text.length + 1))}`;
        return encoded ? encodeURIComponent(text) : text;
      });
    fc.assert(
      fc.property(spelled, (name) => {
        expect(redactQuery(`${name}=S3CR3T&q=1`)).toBe(`${name}=${REDACTED}&q=1`);
      }),
      { numRuns: 500 },
    );
  });

  it('redacts a secret parameter given without a value or with an empty one', () => {
    expect(redactQuery('password&apiKey=&q=1')).toBe('password=[REDACTED]&apiKey=[REDACTED]&q=1');
  });
});

describe('The cut of long text', () => {
  it('keeps text up to the limit as it is', () => {
    const text = 'x'.repeat(LOG_TEXT_MAX);
    expect(cutForLog(text)).toBe(text);
  });

  it('keeps the first LOG_TEXT_MAX characters of longer text and says how many were cut', () => {
    const text = 'y'.repeat(13_000);
    expect(cutForLog(text)).toBe(`${'y'.repeat(1024)}…[11976 more characters cut]`);
  });

  it('leaves text it has already cut as it is', () => {
    const once = cutForLog('w'.repeat(13_000));
    expect(cutForLog(once)).toBe(once);
  });

  it('never ends the kept part on half a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(10)}`;
    expect(cutForLog(text, 10)).toBe(`${'a'.repeat(9)}…[12 more characters cut]`);
  });

  it('redacts before it cuts, so a key past the limit is neither shown nor half shown', () => {
    const { query } = redactUrl(`/v1/dump/objects?q=${'z'.repeat(1020)}&apiKey=SECRET-KEY-VALUE`);
    expect(query.startsWith(`q=${'z'.repeat(1020)}&a`)).toBe(true);
    expect(query).not.toContain('SECRET');
    expect(query).toContain('more characters cut]');
  });
});

describe('Log object redaction', () => {
  it('replaces secret fields at any depth and keeps the others', () => {
    const logged = {
      method: 'POST',
      headers: { 'X-Api-Key': 'S1', accept: 'text/turtle', Authorization: 'Bearer S2' },
      body: { user: 'ann', password: 'S3', nested: [{ access_token: 'S4', page: 2 }] },
    };
    expect(redactLogValue(logged)).toEqual({
      method: 'POST',
      headers: { 'X-Api-Key': '[REDACTED]', accept: 'text/turtle', Authorization: '[REDACTED]' },
      body: { user: 'ann', password: '[REDACTED]', nested: [{ access_token: '[REDACTED]', page: 2 }] },
    });
    expect(logged.body.password).toBe('S3');
  });

  it('cuts long strings of a logged object', () => {
    const value = redactLogValue({ query: 'q'.repeat(5000) }) as { query: string };
    expect(value.query).toBe(`${'q'.repeat(1024)}…[3976 more characters cut]`);
  });

  it('leaves errors and secret holders to their own serialisation', () => {
    const err = new Error('boom');
    const keys = new SecretList(['k']);
    const value = redactLogValue({ err, keys }) as { err: unknown; keys: unknown };
    expect(value.err).toBe(err);
    expect(value.keys).toBe(keys);
  });
});
