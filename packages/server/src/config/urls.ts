/** The URL checks the settings that name an endpoint share (`AI_BASE_URL`, `PUSH_WEBHOOK_URL`, `SMTP_URL`, `CAPTCHA_*_VERIFY_URL`). */

/** `value` parsed as a URL, or undefined when it does not parse. */
export function parsedUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** A parsed URL whose scheme is http or https. */
export function isHttpUrl(url: URL | undefined): url is URL {
  return url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:');
}

/** Whether the URL carries a user or a password (`fetch` refuses such a URL). */
export function hasCredentials(url: URL): boolean {
  return url.username !== '' || url.password !== '';
}
