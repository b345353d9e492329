import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Analyse de la triche": placeholder until the screen is built. */
export function AnalysisPage() {
  return <UnderConstruction title="Analyse de la triche" />;
}
