/**
 * Testing Library folds every run of spaces of the page's text to one plain space, the no-break ones of French
 * typography included (contract/src/typography.ts), but compares a string query as it is given: a text that holds
 * no-break spaces is looked up folded the same way. What is on the page is asserted through textContent.
 */
export const folded = (text: string) => text.replace(/\s+/g, ' ').trim();
