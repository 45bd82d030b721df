/**
 * Private routes an API key may not call (decision 058), answered 403 API_KEY_SESSION_ONLY:
 * managing keys (a key never mints keys), a person's own account and session (profile,
 * password, unlock, live updates), and what needs the person at the device — the professional's
 * own signature, handing the device to the patient, uploading or using a certificate. Every
 * other private route works with a key exactly as with a session of the key's role.
 */
const SESSION_ONLY_ROUTES = [
  /^\/api\/settings\/api-keys(\/|$)/,
  /^\/api\/auth\//,
  /^\/api\/profile(\/|$)/,
  /^\/api\/me\//,
  /^\/api\/events$/,
  /^\/api\/documents\/professional-signatures(\/|$)/,
  /^\/api\/documents\/:id\/professional-signature(\/|$)/,
  /^\/api\/documents\/:id\/front-desk$/,
  /^\/api\/certificates(\/|$)/,
];

/** `url` as the route was registered (e.g. /api/documents/:id). */
export const isSessionOnlyRoute = (url: string) => SESSION_ONLY_ROUTES.some((pattern) => pattern.test(url));
