export { AnnotationView, annotationText } from './annotation-view';
