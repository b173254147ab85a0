/**
 * Issue 22 item 2: one call shape. Every caller-driven use case `createCore` builds is
 * `execute(caller, input)` or `execute(caller)`; only the system operations (API key
 * authentication, tenant administration, the reaction recount, one pass of notification
 * dispatch, which the dispatcher runs) have none.
 */
import { expect } from 'chai';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { createCore } from './create-core.js';

const SYSTEM_OPERATIONS = new Set(['tenancy.manage', 'tenancy.authenticate', 'maintenance.recountReactions', 'notifications.dispatch']);

/** Every `execute` method `createCore` hands out, by its place (`forms.create`). */
function useCasesOf(core: Record<string, unknown>): Array<[string, (...args: unknown[]) => unknown]> {
  const found: Array<[string, (...args: unknown[]) => unknown]> = [];
  for (const [group, members] of Object.entries(core)) {
    if (typeof members !== 'object' || members === null) continue;
    for (const [name, useCase] of Object.entries(members)) {
      // The class's own method: `createCore` puts its input check in front of it (checked-inputs.ts).
      const execute = typeof useCase === 'object' && useCase !== null ? (Object.getPrototypeOf(useCase) as { execute?: unknown }).execute : undefined;
      if (typeof execute === 'function') found.push([`${group}.${name}`, execute as (...args: unknown[]) => unknown]);
    }
  }
  return found;
}

describe('createCore: one call shape', () => {
  const useCases = useCasesOf(createCore({ captcha: new StaticCaptchaVerifier(new Map()) }));

  it('finds the use cases', () => {
    expect(useCases.length).to.be.greaterThan(40);
  });

  for (const [place, execute] of useCases) {
    if (SYSTEM_OPERATIONS.has(place)) continue;
    it(`${place} is execute(caller, input) or execute(caller)`, () => {
      // The compiled parameter list: `caller`, then at most one input (a name or a destructuring).
      const parameters = /^(?:async\s+)?execute\s*\(([^)]*(?:\{[^}]*\}[^)]*)?)\)/.exec(execute.toString())?.[1] ?? '';
      expect(parameters, execute.toString().slice(0, 120)).to.match(/^caller(?:,\s*(?:\w+|\{[^}]*\})(?:\s*=\s*[^,]+)?)?$/);
      expect(execute.length).to.be.within(1, 2);
    });
  }
});
