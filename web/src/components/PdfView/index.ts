export { PdfView, type PdfViewProps } from './PdfView';
