import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Aperçu des corrections": placeholder until the screen is built. */
export function OverviewPage() {
  return <UnderConstruction title="Aperçu des corrections" />;
}
