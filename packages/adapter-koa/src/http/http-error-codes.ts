/** Outcomes that belong to HTTP itself rather than to the domain. */
export const HttpErrorCodes = {
  INVALID_JSON: 'INVALID_JSON',
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** A JSON body declared in a charset other than UTF-8 (RFC 8259 §8.1). */
  UNSUPPORTED_CHARSET: 'UNSUPPORTED_CHARSET',
  /** A JSON body in a content coding the body reader does not decode (RFC 9110 §15.5.16). */
  UNSUPPORTED_CONTENT_ENCODING: 'UNSUPPORTED_CONTENT_ENCODING',
  /** A request target longer than `MAX_REQUEST_TARGET` (RFC 9110 §15.5.15). */
  URI_TOO_LONG: 'URI_TOO_LONG',
  ROUTE_NOT_FOUND: 'ROUTE_NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  /** An `Expect` other than `100-continue` (RFC 9110 §10.1.1). */
  EXPECTATION_FAILED: 'EXPECTATION_FAILED',
  /** An HTTP/1.1 request without `Host` (RFC 9112 §3.2). */
  HOST_MISSING: 'HOST_MISSING',
  /** `Host` given twice, or a value that is no host and port (RFC 9112 §3.2). */
  HOST_INVALID: 'HOST_INVALID',
} as const;

export type HttpErrorCode = (typeof HttpErrorCodes)[keyof typeof HttpErrorCodes];

/** An HTTP-level failure raised by the edge (body parsing, routing). */
export class HttpProblem extends Error {
  constructor(
    readonly code: HttpErrorCode,
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'HttpProblem';
  }
}
