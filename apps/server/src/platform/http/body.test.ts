import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/build-app';
import { createCompany, loginAs } from '../../test/factories';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './body';
import { BODY_TOO_LARGE } from './errors';

/**
 * Writes a whole request before reading anything, as most clients do (curl, browsers), and answers
 * what came back. A client that cannot finish sending (the server closed on it: EPIPE, ECONNRESET)
 * reports a network error rather than the answer, so that is a failure here too.
 */
function sendWholeThenRead(port: number, path: string, body: Buffer, access?: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let failure: string | undefined;
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message));
    socket.on('close', () => resolve(failure ? `could not send the whole request: ${failure}` : Buffer.concat(received).toString('latin1')));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${access ? `Authorization: Bearer ${access}\r\n` : ''}\r\n`);
    socket.end(body);
  });
}

describeEachDatabase('request bodies', (ctx) => {
  it('answers a 10 MB JSON body with a readable 413, signed in or not, to a client that sends it all first', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const body = Buffer.from(JSON.stringify({ company_name: 'x'.repeat(10 * 1024 * 1024), password: 'secret' }));

    const { access } = await loginAs(ctx.app, (await createCompany(ctx.app.db)).admin);

    for (const [path, token] of [['/api/verify-company-password/'], ['/api/signup/'], ['/api/projects/', access]]) {
      const answer = await sendWholeThenRead(port, path!, body, token);
      expect(answer, path).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.slice(answer.indexOf('\r\n\r\n') + 4), path).toBe(JSON.stringify({ detail: BODY_TOO_LARGE }));
    }
  });

  it('still serves bodies under the limit and a depth within it', async () => {
    const nested = { company_name: 'No such company', password: 'x', extra: JSON.parse(`${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}`) };
    const response = await ctx.app.inject({ method: 'POST', url: '/api/verify-company-password/', payload: nested, remoteAddress: '10.77.0.1' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error: 'Invalid company name or password.' });
  });
});

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(nestsDeeperThan('[[1]]', 2)).toBe(false);
    expect(nestsDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[1]}}', 2)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"[[[["}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\\\"}', 1)).toBe(false);
    expect(nestsDeeperThan('[1],[2],[3]', 1)).toBe(false);
  });

  it('stops at the first level too deep, whatever follows', () => {
    expect(nestsDeeperThan(`${'['.repeat(500_000)}`, MAX_JSON_DEPTH)).toBe(true);
  });
});
