import type { Caller } from '@cms/core';

/** What the middlewares of this adapter keep on `ctx.state`. */
export interface CmsState {
  requestId: string;
  /** The route template that matched (`/cms/authors/delete/:id`), for logs. */
  routeTemplate?: string;
  tenantId?: string;
  caller?: Caller;
  /** The matched operation's 500 message. */
  serverErrorMessage?: string;
}
