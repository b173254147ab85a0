/** The response envelope of every route under the base path. */
import type { ValidationIssue } from '@cms/core';
import { memberJson, type KnownText } from './frozen-json.js';

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
 * the same for every answer of a route, so it is written once. `known`: a part of the data whose
 * text this answer has already written (see `KnownText`).
 */
export function successEnvelopeWriter(statusCode: number, message: string): (data: unknown, known?: KnownText) => string {
  const head = JSON.stringify(successEnvelope(statusCode, message, null)).slice(0, -'null}'.length);
  return (data, known) => {
    const text = memberJson(data, known);
    return text === undefined ? JSON.stringify(successEnvelope(statusCode, message, data)) : `${head}${text}}`;
  };
}

export function errorEnvelope(statusCode: number, message: string, errors?: readonly ValidationIssue[]): Envelope<never> {
  return errors && errors.length > 0
    ? { success: false, statusCode, message, data: null, errors }
    : { success: false, statusCode, message, data: null };
}
