/** Text made safe inside HTML, in an element or a quoted attribute (mails, the unsubscribe page, the web app's page). */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
