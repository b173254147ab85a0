/**
 * @cms/adapter-koa — the HTTP edge: the app factory, credentials, the route declarations with
 * their JSON Schemas, the error table and the OpenAPI document.
 */
export * from './app/create-app.js';
export * from './auth/credentials.js';
export * from './auth/jwt-verifier.js';
export * from './http/client-error.js';
export * from './http/early-answers.js';
export * from './http/serving-state.js';
export * from './http/cors.middleware.js';
export * from './http/service-metrics.js';
export * from './http/envelope.js';
export * from './http/error-table.js';
export * from './http/http-error-codes.js';
export * from './http/json-logger.js';
export * from './openapi/openapi-document.js';
export * from './routing/route-definition.js';
export * from './routing/mount-routes.js';
export * from './routing/schema-validator.js';
export * from './dashboard/dashboard.routes.js';
export * from './repurpose/repurpose.routes.js';
export * from './ai/translate.routes.js';
export * from './forms/forms.routes.js';
export * from './authors/authors.routes.js';
export * from './articles/articles.routes.js';
export * from './comments/comments.routes.js';
export * from './webhooks/webhooks.routes.js';
export * from './content/content-lists.routes.js';
export * from './content/content-reads.routes.js';
export * from './content/content-updates.routes.js';
export * from './content/content-deletes.routes.js';
