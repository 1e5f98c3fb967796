/**
 * The strings assigned to `document.cookie` by set_cookie and delete_cookie, built here (not in the
 * page) so the rules are plain functions under test. document.cookie is used rather than
 * chrome.cookies so the extension needs no extra permission and can only do what the page's own
 * scripts could: no HttpOnly cookies, no cookies for other sites.
 */

export interface CookieTarget {
  name: string;
  path: string;
  domain?: string;
}

/** RFC 6265 token characters: anything else in a name is refused or mangled by the browser. */
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** `;` would end the value and start attributes; control characters make the browser drop the cookie. */
const FORBIDDEN_IN_VALUE = /[;\u0000-\u001f\u007f]/;
const DOMAIN = /^\.?[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
/** Browsers ignore a cookie whose name and value together exceed 4096 bytes. */
export const MAX_COOKIE_BYTES = 4096;
export const EXPIRED = "Thu, 01 Jan 1970 00:00:00 GMT";

/** Why a cookie field cannot be used, or undefined when it can. */
export function cookieNameProblem(name: string): string | undefined {
  if (!NAME.test(name)) return `cookie name "${name}" may only contain letters, digits and !#$%&'*+-.^_\`|~ (no spaces, "=", ";" or ",")`;
  return undefined;
}

export function cookieValueProblem(value: string): string | undefined {
  if (FORBIDDEN_IN_VALUE.test(value)) return 'cookie value may not contain ";" or control characters (encode it first, e.g. with encodeURIComponent)';
  if (new TextEncoder().encode(value).length > MAX_COOKIE_BYTES) return `cookie value is longer than ${MAX_COOKIE_BYTES} bytes`;
  return undefined;
}

export function cookiePathProblem(path: string): string | undefined {
  if (!path.startsWith("/") || FORBIDDEN_IN_VALUE.test(path)) return `cookie path "${path}" must start with "/" and contain no ";"`;
  return undefined;
}

export function cookieDomainProblem(domain: string): string | undefined {
  if (!DOMAIN.test(domain)) return `cookie domain "${domain}" is not a host name (like example.com or .example.com)`;
  return undefined;
}

function attributes(target: CookieTarget): string {
  return `; path=${target.path}${target.domain ? `; domain=${target.domain}` : ""}`;
}

/** A session cookie: it lasts until the browser closes, like one set by a page script without expiry. */
export function setCookieString(target: CookieTarget, value: string): string {
  return `${target.name}=${value}${attributes(target)}`;
}

/** Deleting is setting an expired cookie with the same name, path and domain; any other path or domain is a different cookie. */
export function deleteCookieString(target: CookieTarget): string {
  return `${target.name}=${attributes(target)}; expires=${EXPIRED}; max-age=0`;
}
