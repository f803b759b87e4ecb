import { describe, expect, it } from 'vitest';
import { mismatchesOf, type Answer, type Operation } from './openapi-responses';

const error = { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'], additionalProperties: false };
const operation: Operation = {
  responses: {
    '200': {
      headers: { 'X-Total-Count': { schema: { type: 'integer', minimum: 0 } } },
      content: { 'application/json': { schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, due_date: { type: 'string', format: 'date', nullable: true } }, required: ['id'] } } }, 'text/csv': {} },
    },
    '204': {},
    '429': { headers: { 'Retry-After': { required: true, schema: { type: 'integer', minimum: 1 } } }, content: { 'application/json': { schema: error } } },
  },
};

const answer = (statusCode: number, headers: Record<string, string>, body = ''): Answer => ({ statusCode, headers, rawPayload: Buffer.from(body) });
const json = (value: unknown) => JSON.stringify(value);

describe('the OpenAPI answer check of the test helpers', () => {
  it('passes answers as documented', () => {
    expect(mismatchesOf('GET /x', operation, answer(200, { 'content-type': 'application/json; charset=utf-8', 'x-total-count': '3' }, json([{ id: 1, due_date: '2026-06-30' }, { id: 2, due_date: null }])))).toEqual([]);
    expect(mismatchesOf('GET /x', operation, answer(200, { 'content-type': 'text/csv; charset=utf-8' }, 'id\n1\n'))).toEqual([]);
    expect(mismatchesOf('GET /x', operation, answer(204, {}))).toEqual([]);
    expect(mismatchesOf('GET /x', operation, answer(429, { 'content-type': 'application/json', 'retry-after': '30' }, json({ detail: 'Slow down.' })))).toEqual([]);
  });

  it('names each way an answer differs from the document', () => {
    const problems = (response: Answer) => mismatchesOf('GET /x', operation, response).join('\n');
    expect(problems(answer(413, { 'content-type': 'application/json' }, json({ detail: 'Too large.' })))).toContain('lists no 413 answer');
    expect(problems(answer(200, { 'content-type': 'application/json' }, json([{ id: 'one' }])))).toContain('body does not match');
    expect(problems(answer(200, { 'content-type': 'application/json' }, json([{ id: 1, due_date: '0000-00-00' }])))).toContain('body does not match');
    expect(problems(answer(200, { 'content-type': 'application/pdf' }, '%PDF-'))).toContain('the answer is application/pdf');
    expect(problems(answer(200, { 'content-type': 'application/json', 'x-total-count': 'many' }, json([])))).toContain('X-Total-Count header');
    expect(problems(answer(429, { 'content-type': 'application/json' }, json({ detail: 'Slow down.' })))).toContain('Retry-After header is missing');
    expect(problems(answer(204, {}, json({ ok: true })))).toContain('says no body');
    expect(problems(answer(204, { 'x-total-count': '3' }))).toContain('carries x-total-count, which the document does not mention');
  });
});
