/**
 * Core names a validation problem by its domain path (`sections[0].fields[1].type`, `''` for the
 * whole input); HTTP callers see where it was in their request (`body.sections[0].fields[1].type`).
 * The route's schema checks already speak HTTP and are marked so; every other validation error
 * is core's and is renamed here, when its envelope is written. Decision 0801.
 */
import type { DomainError, ValidationIssue } from '@cms/core';
import { describeIssue } from '@cms/core/internal';

/** Where a route's use case input comes from: its body, else its query. */
export type InputLocation = 'body' | 'query' | 'params';

export interface InputPaths {
  readonly location: InputLocation;
  /** The input property that carries the body as sent (`reaction`), when the body is not the whole input. */
  readonly bodyAt?: string | undefined;
}

export const BODY_PATHS: InputPaths = { location: 'body' };

const HTTP_LOCATED = new WeakSet<DomainError>();

/** Marks an error whose paths are already HTTP paths (the route schemas' own checks). */
export function httpLocated(error: DomainError): DomainError {
  HTTP_LOCATED.add(error);
  return error;
}

/** The error's message and issues with HTTP paths. */
export function httpIssues(error: DomainError, paths: InputPaths): { readonly message: string; readonly issues: readonly ValidationIssue[] } {
  if (HTTP_LOCATED.has(error) || error.issues.length === 0) return error;
  const issues = error.issues.map((issue) => toHttp(issue, paths));
  return { message: describeIssue(issues[0]!), issues };
}

function toHttp(issue: ValidationIssue, paths: InputPaths): ValidationIssue {
  if (issue.onRecord) return { path: issue.path, message: issue.message };
  const { related } = issue;
  const message =
    related !== undefined && issue.message.endsWith(related)
      ? issue.message.slice(0, -related.length) + pathIn(related, paths)
      : issue.message;
  return { path: pathIn(issue.path, paths), message };
}

/** `title` → `body.title`, `[0]` → `body[0]`, `''` → `body`; with `bodyAt: 'reaction'`, `reaction.type` → `body.type`. */
function pathIn(domainPath: string, { location, bodyAt }: InputPaths): string {
  let path = domainPath;
  if (bodyAt !== undefined && (path === bodyAt || path.startsWith(`${bodyAt}.`))) path = path.slice(bodyAt.length + 1);
  if (location === 'params') return path;
  if (path === '') return location;
  return path.startsWith('[') ? location + path : `${location}.${path}`;
}
