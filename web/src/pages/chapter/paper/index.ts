export { CenterManagementPanel } from './center-management-panel';
export { CenterSelectionPanel } from './center-selection-panel';
export { PaperPanel, paperPanelKind } from './paper-panel';
