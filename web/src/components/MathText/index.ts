export { MathText, type MathTextProps } from './MathText';
