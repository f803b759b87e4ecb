import { describe, expect, it } from 'vitest';
import { loggableError, redactedUrl } from './log';

describe('redactedUrl', () => {
  it.each([
    ['/ws/notifications/1/a%40b.test/?token=abc', '/ws/notifications/1/[e-mail]/?token=[redacted]'],
    ['/ws/notifications/1/crew%40acme.test/', '/ws/notifications/1/[e-mail]/'],
    ['/api/notifications/?email=crew%40acme.test&limit=20', '/api/notifications/?email=[e-mail]&limit=20'],
    ['/api/calendar/s3cr3t-feed-token.ics', '/api/calendar/[redacted]'],
    ['/api/calendar/s3cr3t.ics?x=1', '/api/calendar/[redacted]?x=1'],
    ['/ws/notifications/1/a/?%74oken=abc', '/ws/notifications/1/[e-mail]/?%74oken=[redacted]'],
    ['/ws/notifications/1/a/?TOKEN=abc&x=1', '/ws/notifications/1/[e-mail]/?TOKEN=[redacted]&x=1'],
    ['/ws/notifications/1/a/?x=1&tok%65n=abc&token=def', '/ws/notifications/1/[e-mail]/?x=1&tok%65n=[redacted]&token=[redacted]'],
    ['/ws/notifications/1/a/?%2574oken=abc', '/ws/notifications/1/[e-mail]/?%2574oken=abc'],
    ['/api/projects/?search=token&limit=10', '/api/projects/?search=token&limit=10'],
    ['/api/projects/', '/api/projects/'],
    ['/x?%E0%A4%A=1&token=abc', '/x?%E0%A4%A=1&token=[redacted]'],
  ])('%s → %s', (url, expected) => {
    expect(redactedUrl(url)).toBe(expected);
  });
});

describe('loggableError', () => {
  it("keeps a failed statement's text, code and cause, and drops the values it was given", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "companies_name"'), { code: '23505', constraint: 'companies_name', detail: 'Key (name)=(Acme) already exists.' });
    const failed = Object.assign(new Error('Failed query: insert into companies values ($1, $2)\nparams: Acme,$argon2id$secret'), {
      query: 'insert into companies values ($1, $2)',
      params: ['Acme', '$argon2id$secret'],
      cause,
    });

    const logged = JSON.stringify(loggableError(failed));

    expect(logged).toContain('insert into companies values ($1, $2)');
    expect(logged).toContain('23505');
    expect(logged).toContain('companies_name');
    expect(logged).not.toContain('Acme');
    expect(logged).not.toContain('$argon2id');
  });
});
