/**
 * The empty page the web app shows an email's HTML in (GET, public, no session): it has a Content
 * Security Policy of its own that allows inline styles, which the app's own policy does not.
 */
export const EMAIL_FRAME_PATH = "/email-frame";
