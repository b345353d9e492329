export { DateField, DateTimeField } from './date-fields';
