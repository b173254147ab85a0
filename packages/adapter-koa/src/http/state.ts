import type { Caller, TraceContext } from '@cms/core';

/** What the middlewares of this adapter keep on `ctx.state`. */
export interface CmsState {
  requestId: string;
  /** This request's span in its trace (the caller's `traceparent`, or a new trace). */
  trace: TraceContext;
  /** The route template that matched (`/cms/authors/delete/:id`), for logs. */
  routeTemplate?: string;
  tenantId?: string;
  caller?: Caller;
  /** The matched operation's 500 message. */
  serverErrorMessage?: string;
}
