// DateField fetches its calendar after the page's first paint (decision 122); DateTimeField, on management pages
// only, comes with its calendar.
export { DateField } from './date-field';
export { DateTimeField } from './date-fields';
