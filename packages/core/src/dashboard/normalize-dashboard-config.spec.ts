import { expect } from 'chai';
import { isDomainError } from '../shared/domain-error.js';
import { defaultDashboardConfig } from './dashboard-config.js';
import { normalizeDashboardConfig } from './normalize-dashboard-config.js';

const slot = (id: string, type: string, span: string, range = '2weeks', enabled = true) => ({
  id,
  type,
  enabled,
  span,
  settings: { range },
});

describe('normalizeDashboardConfig', () => {
  describe('when the body asks for the default layout', () => {
    const cases: Array<[string, unknown]> = [
      ['an absent body', undefined],
      ['a JSON null body', null],
      ['an empty object', {}],
      ['slots: null', { slots: null }],
      ['slots: []', { slots: [] }],
    ];
    for (const [name, body] of cases) {
      it(`gives the default configuration for ${name}`, () => {
        expect(normalizeDashboardConfig(body)).to.deep.equal(defaultDashboardConfig());
      });
    }

    it('builds the documented seven-slot default', () => {
      expect(defaultDashboardConfig()).to.deep.equal({
        version: 1,
        templateId: 'executive_focus',
        slots: [
          slot('slot_1', 'operationsOverview', 'full'),
          slot('slot_2', 'tenantCapacity', 'half'),
          slot('slot_3', 'contentTrend', 'half'),
          slot('slot_4', 'summaryOverview', 'half'),
          slot('slot_5', 'topArticles', 'half'),
          slot('slot_6', 'reportIntelligence', 'half'),
          slot('slot_7', 'contentSpotlight', 'half'),
        ],
      });
    });

    it('keeps a given version and templateId when slots fall back', () => {
      const result = normalizeDashboardConfig({ version: 3, templateId: 'ops', slots: [] });
      expect(result.version).to.equal(3);
      expect(result.templateId).to.equal('ops');
      expect(result.slots).to.deep.equal(defaultDashboardConfig().slots);
    });
  });

  describe('when slots carry values outside the allowed sets', () => {
    const cases: Array<[string, unknown, unknown, ReturnType<typeof slot>, ReturnType<typeof slot>]> = [
      ['unknown strings', { type: 'pie', span: 'third', settings: { range: '1year' } }, { type: 'pie', span: 'x', settings: { range: 'y' } },
        slot('slot_1', 'operationsOverview', 'full'), slot('slot_2', 'contentTrend', 'half')],
      ['other JSON types', { type: 7, span: true, settings: { range: [] } }, { type: {}, span: 2, settings: { range: null } },
        slot('slot_1', 'operationsOverview', 'full'), slot('slot_2', 'contentTrend', 'half')],
      ['missing properties', {}, {}, slot('slot_1', 'operationsOverview', 'full'), slot('slot_2', 'contentTrend', 'half')],
      ['allowed values', { type: 'topArticles', span: 'half', enabled: false, settings: { range: '1month' } },
        { type: 'tenantCapacity', span: 'full', settings: { range: 'currentMonth' } },
        slot('slot_1', 'topArticles', 'half', '1month', false), slot('slot_2', 'tenantCapacity', 'full', 'currentMonth')],
    ];
    for (const [name, first, second, expectedFirst, expectedSecond] of cases) {
      it(`applies the per-position defaults for ${name}`, () => {
        expect(normalizeDashboardConfig({ slots: [first, second] }).slots).to.deep.equal([expectedFirst, expectedSecond]);
      });
    }

    it('drops properties the seed does not list, at every level', () => {
      const result = normalizeDashboardConfig({ extra: 1, slots: [{ id: 'a', color: 'red', settings: { range: '1week', size: 3 } }] });
      expect(result).to.deep.equal({ version: 1, templateId: 'executive_focus', slots: [slot('a', 'operationsOverview', 'full', '1week')] });
      expect(result).not.to.have.property('extra');
    });

    it('numbers missing ids by 1-based position, keeping given ones', () => {
      const ids = normalizeDashboardConfig({ slots: [{ id: 'main' }, {}, {}] }).slots.map((s) => s.id);
      expect(ids).to.deep.equal(['main', 'slot_2', 'slot_3']);
    });
  });

  describe('when the body has wrong JSON types', () => {
    const cases: Array<[string, unknown, string]> = [
      ['a non-object body', [1], 'must be an object'],
      ['a string body', 'layout', 'must be an object'],
      ['version as a string', { version: '1' }, 'version must be a finite number of at least 1'],
      ['version below 1', { version: 0 }, 'version must be a finite number of at least 1'],
      ['an empty templateId', { templateId: '' }, 'templateId must be a string of 1 to 64 characters'],
      ['a long templateId', { templateId: 'x'.repeat(65) }, 'templateId must be a string of 1 to 64 characters'],
      ['slots as an object', { slots: {} }, 'slots must be an array'],
      ['25 slots', { slots: Array.from({ length: 25 }, () => ({})) }, 'slots must have at most 24 items'],
      ['a slot that is not an object', { slots: [{}, 'x'] }, 'slots[1] must be an object'],
      // A hole: embedding code can build one, JSON cannot.
      ['a hole among the slots', { slots: [{}, , {}] }, 'slots[1] must be an object'],
      ['a numeric slot id', { slots: [{ id: 5 }] }, 'slots[0].id must be a string of 1 to 64 characters'],
      ['enabled as a string', { slots: [{ enabled: 'yes' }] }, 'slots[0].enabled must be a boolean'],
      ['settings as an array', { slots: [{ settings: [] }] }, 'slots[0].settings must be an object'],
      ['two slots with one id', { slots: [{ id: 'a' }, { id: 'a' }] }, 'slots[1].id duplicates the slot id "a"'],
      ['a given id equal to a default id', { slots: [{}, { id: 'slot_1' }] }, 'slots[1].id duplicates the slot id "slot_1"'],
    ];
    for (const [name, body, message] of cases) {
      it(`rejects ${name}`, () => {
        let caught: unknown;
        try {
          normalizeDashboardConfig(body);
        } catch (error) {
          caught = error;
        }
        expect(isDomainError(caught), 'a domain error').to.equal(true);
        expect((caught as Error).message).to.equal(message);
      });
    }

    it('counts templateId and slot ids in characters, not UTF-16 units: 64 emoji fit, 65 do not', () => {
      const config = normalizeDashboardConfig({ templateId: '😀'.repeat(64), slots: [{ id: '😀'.repeat(64) }] });
      expect([config.templateId, config.slots[0]!.id]).to.deep.equal(['😀'.repeat(64), '😀'.repeat(64)]);
      expect(() => normalizeDashboardConfig({ templateId: '😀'.repeat(65) })).to.throw('templateId must be a string of 1 to 64 characters');
      expect(() => normalizeDashboardConfig({ slots: [{ id: '😀'.repeat(65) }] })).to.throw('slots[0].id must be a string of 1 to 64 characters');
    });

    it('accepts exactly 24 slots', () => {
      expect(normalizeDashboardConfig({ slots: Array.from({ length: 24 }, () => ({})) }).slots).to.have.length(24);
    });
  });
});
