/** The response envelope of every route under the base path. */
import type { ValidationIssue } from '@cms/core';

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

export function errorEnvelope(statusCode: number, message: string, errors?: readonly ValidationIssue[]): Envelope<never> {
  return errors && errors.length > 0
    ? { success: false, statusCode, message, data: null, errors }
    : { success: false, statusCode, message, data: null };
}
