import type { Caller, TraceContext } from '@cms/core';
import type { InputPaths } from './input-paths.js';
import type { QueryParams } from './request-query.js';

/** What the middlewares of this adapter keep on `ctx.state`. */
export interface CmsState {
  requestId: string;
  /** This request's span in its trace (the caller's `traceparent`, or a new trace). */
  trace: TraceContext;
  /** The route template that matched (`/cms/authors/delete/:id`), for logs. */
  routeTemplate?: string;
  tenantId?: string;
  caller?: Caller;
  /** Where the matched operation's input comes from, for the paths of core's validation errors. */
  inputPaths?: InputPaths;
  /** The matched operation's 500 message. */
  serverErrorMessage?: string;
  /** The query string's parameters, once something asked for them (`requestQuery`). */
  query?: QueryParams;
}
