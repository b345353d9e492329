export { CenterManagementPanel } from './center-management-panel';
export { CenterSelectionPanel } from '../../../components/CenterSelection';
export { PaperPanel, paperPanelKind } from './paper-panel';
