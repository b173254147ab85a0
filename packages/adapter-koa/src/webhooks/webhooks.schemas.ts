/** Webhook JSON Schemas: create and update bodies, the stored webhook and its delivery log (the list's are §6.1's). */
import { ALL_WEBHOOK_EVENTS, WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX } from '@cms/core';
import { WEBHOOK_URL_PATTERN } from '@cms/core/internal';
import { nonBlankText, nullable, nullableString, timestampSchema } from '../http/record-schemas.js';
import type { JsonSchema } from '../routing/route-definition.js';

const urlSchema: JsonSchema = {
  type: 'string',
  maxLength: WEBHOOK_URL_MAX,
  pattern: WEBHOOK_URL_PATTERN,
  description: 'An absolute http(s) URL, written plainly (http:// or https:// before the host; no whitespace, control character or backslash), whose host is not, and does not resolve to, a loopback, private, link-local, unique-local, CGNAT or unspecified address',
  example: 'https://hooks.example.com/cms',
};
/**
 * `["*"]` or a list of event types, never both (the service refuses `*` beside a type). Checked
 * item by item first, so an unknown name is answered as one; the `oneOf` only tells the two
 * forms apart, and a value of neither is answered in its forms' titles. A repeated entry is not
 * refused: the service keeps it once.
 */
const eventsSchema: JsonSchema = {
  type: 'array',
  minItems: 1,
  items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES, ALL_WEBHOOK_EVENTS] },
  oneOf: [
    { title: '["*"] alone', description: 'Every event type, those added later included', type: 'array', minItems: 1, items: { const: ALL_WEBHOOK_EVENTS } },
    // The event types themselves (not "anything but *"), so a generated client's type refuses
    // `["*", "form.created"]` too; the items were checked against the same names above.
    { title: 'a list of event types', type: 'array', items: { enum: [...WEBHOOK_EVENT_TYPES] } },
  ],
  description: '["*"] for every event type, or a list of event types; a type given twice is kept once',
  example: ['form.submitted'],
};

const webhookProperties = {
  url: urlSchema,
  events: eventsSchema,
  description: nullable(nonBlankText(WEBHOOK_DESCRIPTION_MAX)),
  enabled: nullable({ type: 'boolean' }),
};

export const createWebhookBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'events'],
  properties: webhookProperties,
};

/** Documents the update body; the use case checks it after the lookup (§6.3 order). */
export const updateWebhookBodySchema: JsonSchema = { type: 'object', additionalProperties: false, properties: webhookProperties };

const webhookSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'url', 'events', 'description', 'enabled', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { enum: [...WEBHOOK_EVENT_TYPES, ALL_WEBHOOK_EVENTS] } },
    description: nullableString,
    enabled: { type: 'boolean' },
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  },
};

export const webhookDataSchema: JsonSchema = { type: 'object', required: ['webhook'], properties: { webhook: webhookSchema } };

export const createdWebhookDataSchema: JsonSchema = {
  type: 'object',
  required: ['webhook'],
  properties: {
    webhook: {
      ...webhookSchema,
      required: [...(webhookSchema.required as string[]), 'secret'],
      properties: {
        ...(webhookSchema.properties as Record<string, unknown>),
        secret: { type: 'string', description: 'whsec_ and the base64 of the signing key. Shown only in this answer.' },
      },
    },
  },
};

export const deliveriesDataSchema: JsonSchema = {
  type: 'object',
  required: ['deliveries'],
  properties: {
    deliveries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['eventId', 'type', 'status', 'attempts', 'lastStatusCode', 'lastError', 'createdAt', 'deliveredAt'],
        properties: {
          eventId: { type: 'string', description: 'The webhook-id header of every attempt' },
          type: { enum: [...WEBHOOK_EVENT_TYPES] },
          status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
          attempts: { type: 'integer' },
          lastStatusCode: { type: ['integer', 'null'] },
          lastError: nullableString,
          createdAt: timestampSchema,
          deliveredAt: { anyOf: [timestampSchema, { type: 'null' }] },
        },
      },
    },
  },
};
