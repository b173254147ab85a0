/**
 * What a CAPTCHA verification made for a caller passes on besides the token: the request's trace
 * and the client's address (site-verify's optional `remoteip`, which providers use to score
 * abuse). The address is read here, at the provider call, not for every request.
 */
import type { Caller } from '../shared/caller.js';
import type { CaptchaCallContext } from './captcha.ports.js';

export function captchaCallContextOf(caller: Caller): CaptchaCallContext {
  const remoteIp = caller.peer?.remoteAddress;
  return { ...(caller.trace ? { trace: caller.trace } : {}), ...(remoteIp ? { remoteIp } : {}) };
}
