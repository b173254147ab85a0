/** POST /ai/translate: translate a text with the configured AI provider, within the tenant's monthly token quota. */
import { ErrorCodes, type TranslateText } from '@cms/core';
import { defineRoute, type RouteModule } from '../routing/route-definition.js';
import { translateBodySchema, translateDataSchema } from './translate.schemas.js';

interface TranslateBody {
  readonly text: string;
  readonly targetLanguage: string;
  readonly sourceLanguage?: string | null;
}

export interface TranslateUseCases {
  readonly translate: TranslateText;
}

export function translateRoutes({ translate }: TranslateUseCases): RouteModule {
  return [
    defineRoute<TranslateBody>({
      operationId: 'translateText',
      method: 'POST',
      path: '/ai/translate',
      summary: 'Translate a text with the AI provider; reports the tenant’s token usage this month',
      tags: ['ai'],
      body: translateBodySchema,
      success: { status: 200, message: 'OK', data: translateDataSchema },
      errors: [ErrorCodes.AI_QUOTA_EXCEEDED, ErrorCodes.AI_PROVIDER_FAILED, ErrorCodes.AI_NOT_CONFIGURED, ErrorCodes.AI_PROVIDER_TIMEOUT],
      handler: ({ caller, body }) => translate.execute(caller, body),
    }),
  ];
}
