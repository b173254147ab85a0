/** Awaits a promise that must fail with a domain error and returns it (tests). */
import { isDomainError, type DomainError } from '../shared/domain-error.js';

export async function domainErrorOf(promise: Promise<unknown>): Promise<DomainError> {
  let outcome: unknown;
  try {
    await promise;
  } catch (error) {
    outcome = error;
  }
  if (!isDomainError(outcome)) throw new Error(`expected a domain error, got ${outcome === undefined ? 'success' : String(outcome)}`);
  return outcome;
}
