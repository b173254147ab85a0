import { expect } from 'chai';
import fc from 'fast-check';
import { dashboardRoutes, repurposeRoutes, SchemaValidator, type RouteModule } from '@cms/adapter-koa';
import { bodyText, nearValid, schemaValue } from './schema-arbitraries.js';

// The body schemas as the routes declare them (the use cases are never called here).
const bodyOf = (routes: RouteModule, operationId: string) => routes.find((route) => route.operationId === operationId)!.body!;
const dashboardConfigBodySchema = bodyOf(dashboardRoutes({} as never), 'saveDashboardConfig');
const repurposeTemplatePatchSchema = bodyOf(repurposeRoutes({} as never), 'updateRepurposeTemplate');
const validator = new SchemaValidator();
const accepts = (schema: Record<string, unknown>) => {
  const check = validator.compile(schema, 'body');
  return (value: unknown) => {
    try {
      check(value);
      return true;
    } catch {
      return false;
    }
  };
};

describe('schemaValue', () => {
  describe('when given the route schemas of the service', () => {
    it('makes values the route accepts', () => {
      for (const schema of [dashboardConfigBodySchema, repurposeTemplatePatchSchema]) {
        const valid = fc.sample(schemaValue(schema), { numRuns: 200, seed: 7 }).filter(accepts(schema));
        expect(valid.length, JSON.stringify(schema).slice(0, 60)).to.equal(200);
      }
    });
  });

  describe('when the schema has a pattern, an enum and bounds', () => {
    it('keeps to them', () => {
      const schema = { type: 'object', required: ['id', 'n', 'tone'], properties: { id: { type: 'string', pattern: '^[a-f0-9]{24}$' }, n: { type: 'integer', minimum: 0, maximum: 30 }, tone: { enum: ['a', 'b'] } } };
      for (const value of fc.sample(schemaValue(schema), { numRuns: 100, seed: 3 }) as Array<{ id: string; n: number; tone: string }>) {
        expect(value.id).to.match(/^[a-f0-9]{24}$/);
        expect(value.n).to.be.within(0, 30);
        expect(['a', 'b']).to.include(value.tone);
      }
    });
  });
});

describe('nearValid', () => {
  describe('when sampled over a strict schema', () => {
    it('mostly makes values the route refuses, some with an own __proto__ key', () => {
      const samples = fc.sample(nearValid(repurposeTemplatePatchSchema), { numRuns: 300, seed: 11 });
      const accepted = accepts(repurposeTemplatePatchSchema);
      const refused = samples.filter((value) => !accepted(value));
      expect(refused.length).to.be.greaterThan(200);
      expect(samples.some((value) => JSON.stringify(value)?.includes('"__proto__"'))).to.equal(true);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('puts deeply nested values in some, which bodyText writes out as JSON', () => {
      const texts = fc.sample(nearValid(repurposeTemplatePatchSchema), { numRuns: 300, seed: 11 }).filter((value) => value !== undefined).map(bodyText);
      const deep = texts.filter((text) => text.includes('[[[[[[[[[[') || text.includes('{"a":{"a":{"a":'));
      expect(deep.length).to.be.greaterThan(0);
      expect(texts.some((text) => text.includes('\\u0001deep:'))).to.equal(false);
      for (const text of deep) expect(() => JSON.parse(text), text.slice(0, 80)).not.to.throw();
    });
  });
});
