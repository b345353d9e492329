export { PdfView } from './PdfView';
