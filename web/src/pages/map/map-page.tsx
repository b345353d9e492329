import { UnderConstruction } from '../../components/UnderConstruction';

/** SPEC §2 "Établissements": placeholder until the screen is built. */
export function MapPage() {
  return <UnderConstruction title="Établissements" />;
}
