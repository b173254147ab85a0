/** The response envelope of every route under the base path. */
import type { ValidationIssue } from '@cms/core';
import { memberJson } from './frozen-json.js';

export interface Envelope<T = unknown> {
  success: boolean;
  statusCode: number;
  message: string;
  data: T | null;
  errors?: readonly ValidationIssue[];
}

export function successEnvelope<T>(statusCode: number, message: string, data: T): Envelope<T> {
  return { success: true, statusCode, message, data };
}

/**
 * The text of `successEnvelope(statusCode, message, data)` exactly as `JSON.stringify` writes it,
 * with the data's frozen parts written from memory (`memberJson`). Everything before the data is
 * the same for every answer of a route, so it is written once.
 */
export function successEnvelopeWriter(statusCode: number, message: string): (data: unknown) => string {
  const head = JSON.stringify(successEnvelope(statusCode, message, null)).slice(0, -'null}'.length);
  return (data) => {
    const text = memberJson(data);
    return text === undefined ? JSON.stringify(successEnvelope(statusCode, message, data)) : `${head}${text}}`;
  };
}

export function errorEnvelope(statusCode: number, message: string, errors?: readonly ValidationIssue[]): Envelope<never> {
  return errors && errors.length > 0
    ? { success: false, statusCode, message, data: null, errors }
    : { success: false, statusCode, message, data: null };
}
