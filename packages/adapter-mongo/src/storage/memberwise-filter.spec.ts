import { expect } from 'chai';
import { memberwiseEqualities } from './memberwise-filter.js';

describe('memberwiseEqualities', () => {
  describe('when given a value with embedded documents and lists', () => {
    it('names every member by its dotted path, and each list with its length', () => {
      const at = new Date('2026-01-02T03:04:05.678Z');
      const filter = memberwiseEqualities('config', { version: 1, templateId: null, slots: [{ id: 'a', settings: { range: '7d' } }], at }, { tenantId: 'acme' });
      expect(filter).to.deep.equal({
        tenantId: 'acme',
        'config.version': 1,
        'config.templateId': null,
        'config.slots': { $size: 1 },
        'config.slots.0.id': 'a',
        'config.slots.0.settings.range': '7d',
        'config.at': at,
      });
    });

    it('matches a member read as absent as null', () => {
      expect(memberwiseEqualities('defaults', { tone: undefined })).to.deep.equal({ 'defaults.tone': null });
    });
  });
});
