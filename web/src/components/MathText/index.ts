export { MathText } from './MathText';
