/**
 * Typed domain errors. Recognised by a brand (a registered symbol), not only `instanceof`, so two
 * copies of this package in one process still understand each other's errors.
 */
import type { ErrorCode } from './error-codes.js';
import { ErrorCodes } from './error-codes.js';

const BRAND = Symbol.for('cms/DomainError');

/**
 * One validation problem: where and what, in plain words. `path` is a domain path into the
 * operation's input (`sections[0].fields[1].type`; `''` is the whole input), which an adapter
 * turns into its own (adapter-koa: `body.sections[0].fields[1].type`); decision 0801.
 */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
  /** Another input path the message names at its end (`is required with subCategoryId`), for adapters to rename too. */
  readonly related?: string;
  /** The path is into the stored record (`relations.clients`), not into the input: adapters keep it as it is. */
  readonly onRecord?: true;
}

export class DomainError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly code: ErrorCode,
    message: string = code,
    readonly issues: readonly ValidationIssue[] = [],
    /** For a limit that lifts by itself (rate limit, quota): whole seconds until trying again can succeed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A limit refusal that lifts at `until`: carries the whole seconds from `now` (at least 1) for `Retry-After`. */
export function limitError(code: ErrorCode, message: string, now: Date, until: Date): DomainError {
  return new DomainError(code, message, [], Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)));
}

export function isDomainError(error: unknown): error is DomainError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * A validation failure. The message is the first problem in plain words; adapters prefix it
 * (adapter-koa: `Validation failed: <message>`).
 */
export function validationError(path: string, message: string, more: readonly ValidationIssue[] = []): DomainError {
  return issuesError([{ path, message }, ...more]);
}

/** A validation failure whose first issue is `issues[0]` (at least one). */
export function issuesError(issues: readonly [ValidationIssue, ...ValidationIssue[]]): DomainError {
  return new DomainError(ErrorCodes.VALIDATION_FAILED, describeIssue(issues[0]), issues);
}

/** `slots[2].id must be unique` — the path and the problem as one sentence. */
export function describeIssue(issue: ValidationIssue): string {
  return issue.path ? `${issue.path} ${issue.message}` : issue.message;
}
