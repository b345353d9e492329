import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Historique des réponses": placeholder until the screen is built. */
export function HistoryPage() {
  return <UnderConstruction title="Historique des réponses" />;
}
