import { expect } from 'chai';
import fc from 'fast-check';
import { GUEST_ENGAGEMENT } from '@cms/core';
import { parseTraceparent } from '@cms/core/internal';
import { FLAG_FILTER, listQuerySchema } from '../http/list-schemas.js';
import type { RouteDefinition } from '../routing/route-definition.js';
import { LANGUAGE_CODE, SchemaValidator } from '../routing/schema-validator.js';
import { buildOpenApiDocument } from './openapi-document.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

describe('buildOpenApiDocument', () => {
  describe('when it declares the traceparent header', () => {
    const document = buildOpenApiDocument({ title: 'CMS', version: '1.0.0', serverUrl: '/cms' }, []) as {
      components: { parameters: { Traceparent: { schema: { pattern: string } } } };
    };
    const pattern = new RegExp(document.components.parameters.Traceparent.schema.pattern, 'u');
    const documented = (value: string) => pattern.test(value);
    const continued = (value: string) => parseTraceparent(value) !== undefined;

    it('allows exactly the values whose trace the service continues (decision 0778)', () => {
      const values = [
        `00-${TRACE_ID}-${SPAN_ID}-01`,
        `00-${TRACE_ID}-${SPAN_ID}-01-extra`,
        `00-${TRACE_ID}-${SPAN_ID}-01-`,
        ...['01', 'cc', 'fe', 'ff', 'FE', '0g'].flatMap((v) => [`${v}-${TRACE_ID}-${SPAN_ID}-01`, `${v}-${TRACE_ID}-${SPAN_ID}-01-what-ever`]),
        `cc-${TRACE_ID}-${SPAN_ID}-01extra`,
        `cc-${TRACE_ID}-${SPAN_ID}-1`,
        `cc-${'0'.repeat(32)}-${SPAN_ID}-01`,
        `cc-${TRACE_ID}-${'0'.repeat(16)}-01`,
        `00-${TRACE_ID.toUpperCase()}-${SPAN_ID}-01`,
      ];
      expect(values.map(documented)).to.deep.equal(values.map(continued));
      expect(documented(`cc-${TRACE_ID}-${SPAN_ID}-01-what-ever`), 'a later version').to.equal(true);
    });

    it('agrees with the parser on 20,000 near-valid values', () => {
      const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefA'), minLength: length - 1, maxLength: length + 1 });
      const value = fc
        .tuple(fc.oneof(fc.constantFrom('00', '01', 'ff', 'fe'), hex(2)), fc.oneof(fc.constant(TRACE_ID), fc.constant('0'.repeat(32)), hex(32)), fc.oneof(fc.constant(SPAN_ID), hex(16)), hex(2), fc.oneof(fc.constant(''), fc.string({ maxLength: 6 })))
        .map(([version, trace, span, flags, rest]) => `${version}-${trace}-${span}-${flags}${rest}`);
      fc.assert(fc.property(value, (text) => documented(text) === continued(text)), { numRuns: 20_000, seed: 778 });
    });
  });

  describe('when it lists the 400s of an operation', () => {
    const route = (overrides: Partial<RouteDefinition>): RouteDefinition => ({
      operationId: 'read',
      method: 'GET',
      path: '/things/:key',
      summary: 'Read a thing',
      tags: ['things'],
      success: { status: 200, message: 'Thing retrieved successfully' },
      handler: async () => null,
      ...overrides,
    });
    const badRequest = (definition: RouteDefinition): string | undefined => {
      const document = buildOpenApiDocument({ title: 'CMS', version: '1.0.0', serverUrl: '/cms' }, [definition]) as {
        paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
      };
      return Object.values(Object.values(document.paths)[0]!)[0]!.responses['400']?.description;
    };

    it('documents no 400 for path parameters whose schema refuses no segment', () => {
      const params = { type: 'object', required: ['key'], properties: { key: { type: 'string', description: 'Any text' } } };
      expect(badRequest(route({ params }))).to.equal(undefined);
    });

    it('documents the validation 400 for path parameters a pattern can refuse', () => {
      const params = { type: 'object', required: ['key'], properties: { key: { type: 'string', pattern: '^[a-z]+$' } } };
      expect(badRequest(route({ params }))).to.equal('Validation failed: <first problem>');
    });

    it('documents the validation 400 of a repeated captchaToken on a route that reads a CAPTCHA token', () => {
      expect(badRequest(route({ access: { readsCaptchaToken: true } }))).to.equal('Validation failed: <first problem>');
      expect(badRequest(route({ method: 'DELETE', access: { rule: GUEST_ENGAGEMENT } }))).to.equal('Validation failed: <first problem> | Missing x-guest-id header');
    });

    it('documents Invalid JSON body beside the validation 400 of a body', () => {
      expect(badRequest(route({ method: 'POST', path: '/things', body: { type: 'object' } }))).to.equal('Validation failed: <first problem> | Invalid JSON body');
    });
  });

  describe('when a list takes a page size and a true/false filter (decision 0833)', () => {
    const query = listQuerySchema({ isActive: FLAG_FILTER });
    const document = buildOpenApiDocument({ title: 'CMS', version: '1.0.0', serverUrl: '/cms' }, [
      { operationId: 'listThings', method: 'GET', path: '/things/list', summary: 'List things', tags: ['things'], success: { status: 200, message: 'Things retrieved successfully' }, handler: async () => null, query },
    ]) as { paths: { '/things/list': { get: { parameters: Array<{ name: string; schema: Record<string, unknown> }> } } } };
    const declared = (name: string) => document.paths['/things/list'].get.parameters.find((p) => p.name === name)!.schema;

    it('declares them with the schema of their values, so a client sends limit: 20 and isActive: true', () => {
      expect(declared('limit')).to.deep.equal({ type: 'integer', minimum: 1, maximum: 100, default: 20, example: 20, description: 'Page size, 1-100 (default 20)' });
      expect(declared('isActive')).to.deep.equal({ type: 'boolean' });
      expect(declared('cursor')).to.include({ type: 'string' });
    });

    it('accepts as text exactly what the declared values serialise to', () => {
      const check = new SchemaValidator().compile(query, 'query');
      const accepted = (value: Record<string, string>) => {
        try {
          check(value);
          return true;
        } catch {
          return false;
        }
      };
      const limit = declared('limit') as { minimum: number; maximum: number };
      for (let n = -2; n <= 102; n++) expect(accepted({ limit: String(n) }), `limit=${n}`).to.equal(n >= limit.minimum && n <= limit.maximum);
      for (const text of ['01', '1.0', '1e1', ' 5', '+5', '']) expect(accepted({ limit: text }), `limit=${text}`).to.equal(false);
      expect([true, false].map((flag) => accepted({ isActive: String(flag) }))).to.deep.equal([true, true]);
      expect(accepted({ isActive: '1' })).to.equal(false);
    });
  });

  describe('when the languages are configured', () => {
    it('documents a language code as their enum, with an example among them', () => {
      const body = { type: 'object', properties: { language: { type: 'string', [LANGUAGE_CODE]: true, example: 'fr' } } };
      const definition: RouteDefinition = {
        method: 'POST',
        path: '/things',
        operationId: 'makeThing',
        summary: 'Make a thing',
        tags: ['things'],
        success: { status: 200, message: 'Thing made successfully' },
        handler: async () => null,
        body,
      };
      const document = buildOpenApiDocument({ title: 'CMS', version: '1.0.0', serverUrl: '/cms', languages: ['de', 'es'] }, [definition]) as {
        paths: { '/things': { post: { requestBody: { content: { 'application/json': { schema: { properties: { language: unknown } } } } } } } };
      };
      expect(document.paths['/things'].post.requestBody.content['application/json'].schema.properties.language).to.deep.equal({ type: 'string', enum: ['de', 'es'], example: 'es', 'x-enum-setting': 'CMS_LANGUAGES' });
    });
  });
});
