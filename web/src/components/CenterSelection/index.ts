export { CenterSelectionPanel } from './center-selection-panel';
