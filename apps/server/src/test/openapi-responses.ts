/**
 * Every answer an API test gets is checked against the OpenAPI document the server serves
 * (`/api/openapi.json`): its status is one the operation lists, its headers are those the
 * document promises (present when required, of the documented type), and its body has a
 * documented content type and, for JSON, the documented shape. A test whose answer differs
 * fails, naming the operation and the difference: the document and the server cannot drift apart.
 *
 * The document is read and each schema compiled once per process (ajv), then reused by every
 * test file of the worker.
 */
import zlib from 'node:zlib';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { App } from '../app';

interface MediaType {
  schema?: object;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
  headers?: Record<string, { required?: boolean; schema?: object }>;
}
export interface Operation {
  responses: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  parameters: number;
  operation: Operation;
}

/** Headers clients act on: an answer that carries one must have it in the document. */
const ANNOUNCED_HEADERS = ['x-total-count', 'retry-after', 'idempotent-replayed'];

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let routes: Promise<Route[]> | undefined;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
// OpenAPI's own formats for bodies that are files.
ajv.addFormat('binary', true);
const validators = new Map<string, ValidateFunction>();

function routesOf(document: Document): Route[] {
  return Object.entries(document.paths)
    .flatMap(([template, operations]) =>
      Object.entries(operations).map(([method, operation]) => {
        const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\/$/, '');
        return {
          method: method.toUpperCase(),
          template,
          // The server ignores a trailing slash; a path parameter is one segment.
          pattern: new RegExp(`^${escaped.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
          parameters: (template.match(/\{/g) ?? []).length,
          operation,
        };
      }),
    )
    .sort((a, b) => a.parameters - b.parameters);
}

function validator(key: string, schema: object): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

function bodyText(response: Answer): string {
  const encoding = response.headers['content-encoding'];
  const raw = response.rawPayload;
  if (encoding === 'br') return zlib.brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(raw).toString('utf8');
  return raw.toString('utf8');
}

export type Answer = Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'rawPayload'>;

/** What the document's operation says is wrong with this answer, or nothing. */
export function mismatchesOf(operationName: string, operation: Operation, response: Answer): string[] {
  const status = String(response.statusCode);
  const documented = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
  const label = `${operationName} → ${status}`;
  if (!documented) return [`${label}: the document lists no ${status} answer (it lists ${Object.keys(operation.responses).join(', ')})`];
  const problems: string[] = [];
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    const value = response.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`${label}: the ${name} header is missing`);
      continue;
    }
    if (header.schema) {
      const typed = (header.schema as { type?: string }).type === 'integer' ? Number(value) : value;
      const validate = validator(`${label} header ${name}`, header.schema);
      if (!validate(typed)) problems.push(`${label}: the ${name} header ${JSON.stringify(value)} does not match ${JSON.stringify(header.schema)}`);
    }
  }
  const named = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
  for (const name of ANNOUNCED_HEADERS) {
    if (response.headers[name] !== undefined && !named.includes(name)) problems.push(`${label}: the answer carries ${name}, which the document does not mention`);
  }
  const hasBody = response.rawPayload.length > 0;
  const content = documented.content ?? {};
  if ((status === '204' || status === '304') && Object.keys(content).length > 0) problems.push(`${label}: the document promises a body (${Object.keys(content).join(', ')}) that a ${status} never has`);
  if (Object.keys(content).length === 0) {
    if (hasBody) problems.push(`${label}: the document says no body, the answer has ${response.rawPayload.length} bytes`);
    return problems;
  }
  if (!hasBody) return problems;
  const type = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
  const media = content[type] ?? Object.entries(content).find(([documentedType]) => documentedType.endsWith('/*') && type.startsWith(documentedType.slice(0, -1)))?.[1];
  if (!media) return [...problems, `${label}: the answer is ${type || 'untyped'}, the document lists ${Object.keys(content).join(', ')}`];
  if (type !== 'application/json' || !media.schema) return problems;
  const validate = validator(`${label} ${type}`, media.schema);
  if (!validate(JSON.parse(bodyText(response)))) {
    problems.push(`${label}: the body does not match the document: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
  }
  return problems;
}

/**
 * `app.inject` of this app checks each answer to an API request against the document before the
 * test sees it; a request the document does not describe (the web app's files, an unknown path)
 * is left alone.
 */
export function withResponseChecks(app: App): App {
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  routes ??= inject({ method: 'GET', url: '/api/openapi.json' }).then((response) => routesOf(response.json() as Document));
  const checked = async (options: InjectOptions | string) => {
    const response = await inject(options);
    const request = typeof options === 'string' ? { method: 'GET', url: options } : options;
    const url = typeof request.url === 'string' ? request.url : (request.path as string | undefined);
    const method = (request.method ?? 'GET').toUpperCase();
    if (!url || method === 'HEAD') return response;
    const path = new URL(url, 'http://localhost').pathname;
    const route = (await routes!).find((candidate) => candidate.method === method && candidate.pattern.test(path));
    if (!route) return response;
    const problems = mismatchesOf(`${route.method} ${route.template}`, route.operation, response);
    if (problems.length > 0) throw new Error(`The answer differs from /api/openapi.json:\n${problems.join('\n')}\n(body: ${bodyText(response).slice(0, 300)})`);
    return response;
  };
  return Object.assign(app, { inject: checked as unknown as App['inject'] });
}
