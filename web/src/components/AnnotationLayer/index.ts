export { AnnotationLayer, type OtherLayer } from './annotation-layer';
export { AnnotationList } from './annotation-list';
export { MarksToolbar } from './toolbar';
export { useMarks } from './use-marks';
export { MARK_DRAG_TYPE } from './marks';
export { fractionAt, REGIONS, type Point } from './marks';
